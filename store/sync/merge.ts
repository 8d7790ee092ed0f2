// The sync engine's rules, pure: canonical values and the three-way merge of one field against
// its base (docs/architecture.md#the-sync-engine). Used by the pull (store/sync/plan.ts), by the
// outbox the edit plan fills, and by an import's upsert over fields a person changed since.

/** How a field merges: 'scalar' as a whole (a conflict when both sides changed it), 'set' per element. */
export type MergeKind = 'scalar' | 'set';

/** JSON with object keys sorted, so equal values have one text. */
function sortedJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(element => sortedJson(element)).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.keys(value).sort().flatMap(key => {
			const element = (value as Record<string, unknown>)[key];
			return element === undefined ? [] : [`${JSON.stringify(key)}:${sortedJson(element)}`];
		});
		return `{${entries.join(',')}}`;
	}

	return JSON.stringify(value ?? null);
}

/** A set's elements, distinct and sorted by their canonical text; null or a non-array is the empty set. */
export function setElements(value: unknown): unknown[] {
	const elements = Array.isArray(value) ? value : (value === null || value === undefined ? [] : [value]);
	const byText = new Map<string, unknown>();
	for (const element of elements) byText.set(sortedJson(element), element);
	return [...byText.keys()].sort().map(text => byText.get(text));
}

/**
 * A value as one text, what the engine compares and keeps (bases, outbox): JSON with sorted keys,
 * a set as its sorted distinct elements, and an empty set or undefined as null (a cleared field).
 */
export function canonicalJson(value: unknown, kind: MergeKind = 'scalar'): string {
	if (kind === 'set') {
		const elements = setElements(value);
		return elements.length === 0 ? 'null' : sortedJson(elements);
	}

	return sortedJson(value ?? null);
}

export const sameCanonical = (a: unknown, b: unknown, kind: MergeKind = 'scalar') => canonicalJson(a, kind) === canonicalJson(b, kind);

/**
 * What a pull does with one field, from its base b, our value o and theirs t:
 * - `write`: the value to write locally (actor sync), when it differs from ours;
 * - `base`: the new base, when it moves;
 * - `queue`: the value to queue for the tracker, when it differs from theirs (set merges only);
 * - `drop`: both sides agree, so our queued change is done;
 * - `conflict`: a scalar both sides changed differently: nothing is written, a person decides.
 */
export type FieldMerge = {write?: unknown; base?: unknown; queue?: unknown; drop?: boolean; conflict?: true};

/**
 * The three-way rule, per field: t == b → nothing (our change, if any, stays queued); o == b →
 * take theirs; o == t → agreed; else a scalar is a conflict and a set merges per element:
 * (o ∩ t) ∪ (o − b) ∪ (t − b), an element removed on one side and kept on the other stays removed.
 */
export function mergeField(kind: MergeKind, base: unknown, ours: unknown, theirs: unknown): FieldMerge {
	const b = canonicalJson(base, kind);
	const o = canonicalJson(ours, kind);
	const t = canonicalJson(theirs, kind);
	if (t === b) return {};
	if (o === b) return {write: valueOf(theirs, kind), base: valueOf(theirs, kind)};
	if (o === t) return {base: valueOf(theirs, kind), drop: true};
	if (kind === 'scalar') return {conflict: true};
	const merged = mergeSets(base, ours, theirs);
	const result: FieldMerge = {base: valueOf(theirs, kind)};
	const m = canonicalJson(merged, kind);
	if (m !== o) result.write = valueOf(merged, kind);
	if (m === t) result.drop = true;
	else result.queue = valueOf(merged, kind);
	return result;
}

/** (o ∩ t) ∪ (o − b) ∪ (t − b), by canonical element, sorted. */
export function mergeSets(base: unknown, ours: unknown, theirs: unknown): unknown[] {
	const texts = (value: unknown) => new Map(setElements(value).map(element => [sortedJson(element), element]));
	const b = texts(base);
	const o = texts(ours);
	const t = texts(theirs);
	const result = new Map<string, unknown>();
	for (const [text, element] of o) if (t.has(text) || !b.has(text)) result.set(text, element);
	for (const [text, element] of t) if (!b.has(text)) result.set(text, element);
	return [...result.keys()].sort().map(text => result.get(text));
}

/** A value as the store keeps it: a set as its sorted elements, an empty set or undefined as null. */
export function valueOf(value: unknown, kind: MergeKind): unknown {
	if (kind === 'set') {
		const elements = setElements(value);
		return elements.length === 0 ? null : elements;
	}

	return value ?? null;
}

/** One field of a record met three ways: its key and kind, the base, ours (here) and theirs (the tracker's, or a file's). */
export type FieldMeeting = {key: string; kind: MergeKind; base: unknown; ours: unknown; theirs: unknown};

/** What the three-way rule decides for a record's fields, each field's part by its key (mergeField). */
export type RecordMerge = {
	/** Field → the value to write here. */
	writes: Record<string, unknown>;
	/** The fields whose base moves, with the new base. */
	bases: Array<{key: string; kind: MergeKind; value: unknown}>;
	/** The fields both sides changed differently: nothing written, a person decides (a sync_conflict follow-up). */
	conflicts: FieldMeeting[];
	/** Fields both sides agree on now: a change of ours queued for them is done. */
	drops: string[];
	/** Fields whose merged set the other side still lacks. */
	queues: Array<{key: string; kind: MergeKind; value: unknown}>;
};

/** The walk over a record's fields both a pull (sync/plan.ts) and an import over an earlier import (upsert-plan.ts) make. */
export function mergeRecord(fields: Iterable<FieldMeeting>): RecordMerge {
	const result: RecordMerge = {writes: {}, bases: [], conflicts: [], drops: [], queues: []};
	for (const meeting of fields) {
		const {key, kind} = meeting;
		const merge = mergeField(kind, meeting.base, meeting.ours, meeting.theirs);
		if (merge.conflict) {
			result.conflicts.push(meeting);
			continue;
		}

		if (merge.write !== undefined) result.writes[key] = merge.write;
		if (merge.base !== undefined) result.bases.push({key, kind, value: merge.base});
		if (merge.drop) result.drops.push(key);
		if (merge.queue !== undefined) result.queues.push({key, kind, value: merge.queue});
	}

	return result;
}
