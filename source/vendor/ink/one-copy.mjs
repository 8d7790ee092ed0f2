// Packages bundled once. wrap-ansi (Ink's wrapping) depends on an older string-width than Ink's
// own; both copies made their Unicode tables at start-up, and two widths of one text could differ
// (the older one has no RGI emoji rule). Every import of these packages resolves to the copy at
// the top of node_modules, the one Ink uses. Used by build-ink.mjs (the one Ink build).

/** An esbuild plugin: bare imports of `packages`, from anywhere, resolve as if imported from `root`. */
export function oneCopyPlugin(root, packages) {
	const filter = new RegExp(`^(?:${packages.map(name => name.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
	return {
		name: 'sift-one-copy',
		setup(builder) {
			builder.onResolve({filter}, async args => {
				if (args.pluginData?.oneCopy) return undefined;
				return builder.resolve(args.path, {resolveDir: root, kind: args.kind, pluginData: {oneCopy: true}});
			});
		},
	};
}

/** The packages the bundles hold one copy of. */
export const ONE_COPY = ['string-width'];
