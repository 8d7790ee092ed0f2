// The body between header and footer: the open overlay's view where the registry says it draws
// (the whole body, or the pane beside the list), else the list with its pane.

import {Box} from '#ink';
import type {ViewContext} from '../features/feature.js';
import type {Overlay} from '../state.js';
import {sliceOf} from '../registry.js';
import {List, type ListProps} from './list.js';

export type BodyProps = {
	overlay: Overlay;
	/** What the views are drawn from; its `pane` is the list's own (the record, or the run), or null when closed. */
	context: ViewContext;
	list: Omit<ListProps, 'height' | 'width'>;
};

export function Body({overlay, context, list}: BodyProps) {
	const {layout} = context;
	const view = sliceOf(overlay.kind).view;
	if (view?.place === 'body') {
		const node = view.render(overlay as never, context);
		if (node) return node;
	}

	const pane = view?.place === 'pane' ? view.render(overlay as never, context) : context.pane;
	const listNode = <List {...list} height={layout.listHeight} width={layout.listWidth}/>;
	if (!pane) return listNode;
	return (
		<Box flexDirection={layout.side ? 'row' : 'column'} height={layout.bodyHeight}>
			{listNode}
			{layout.side ? <Box width={1}/> : null}
			{pane}
		</Box>
	);
}
