// A tracker link's map file, `fields: {REMOTE: sift_key | null}` (null keeps a field local), read and
// checked alike for every tracker: each adapter says only which remote names it knows.
import {readFileSync} from 'node:fs';
import {parse as parseYaml} from 'yaml';

/** remote name → sift field key, or null to keep the field local (not synced, not pulled). */
export type FieldMap = Record<string, string | null>;

export class MapFileError extends Error {
	override name = 'MapFileError';
	readonly expected = true;
}

/** What one tracker's map may say: its remote names, and how a refusal names them. */
export type MapFileRules = {
	/** "GitHub", "Redmine": named in every refusal. */
	tracker: string;
	/** The remote names sift maps. */
	known: ReadonlySet<string>;
	/** A remote name outside `known` that is still taken (Redmine's `cf:NAME`). */
	alsoAccepts?: {test: (remote: string) => boolean; said: string};
	/** Remote names that must not stay local (the link's key). */
	neverLocal?: readonly string[];
};

/** Reads and checks a map file: every remote name known, every key a field key or null. */
export function readFieldMap(path: string, rules: MapFileRules): FieldMap {
	let parsed: unknown;
	try {
		parsed = parseYaml(readFileSync(path, 'utf8'));
	} catch (error) {
		throw new MapFileError(`${path}: cannot read the map: ${(error as Error).message.split('\n')[0]}`);
	}

	const accepted = rules.alsoAccepts;
	const fields = (parsed as {fields?: unknown} | null)?.fields;
	if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new MapFileError(`${path}: expected "fields:" mapping ${rules.tracker} field names${accepted ? ` (or ${accepted.said})` : ''} to sift field keys, or null to keep one local`);
	const map: FieldMap = {};
	for (const [remote, key] of Object.entries(fields)) {
		if (!rules.known.has(remote) && !accepted?.test(remote)) throw new MapFileError(`${path}: "${remote}" is not a ${rules.tracker} field sift maps; known: ${[...rules.known].join(', ')}${accepted ? `, or ${accepted.said}` : ''}`);
		if (key !== null && (typeof key !== 'string' || !/^[a-z][a-z0-9_]*$/.test(key))) throw new MapFileError(`${path}: "${remote}" must map to a field key (lowercase letters, digits, _) or null`);
		if (key === null && rules.neverLocal?.includes(remote)) throw new MapFileError(`${path}: "${remote}" is the key of the link and cannot stay local`);
		map[remote] = key as string | null;
	}

	return map;
}
