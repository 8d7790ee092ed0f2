// Naming an item by id or by a unique field's value: the rules both backends probe by.

import type {LoadedChannel} from './channels.js';

/** An item a name answers to, and how: by its id, or by the value of a unique field. */
export type NameMatch = {item_id: string; by: 'id' | {field: string}};

/** How many items one unique field may name: two already show the name is ambiguous. */
export const NAME_MATCHES_PER_FIELD = 2;

/**
 * The values `name` stands for in the channel's unique fields, one probe per field: the text
 * itself, or for a number field the number it spells (none when it spells no number). Every
 * backend looks these up, each with one index lookup per unique field.
 */
export function nameProbes(channel: LoadedChannel, name: string): Array<{key: string; value: string | number}> {
	const probes: Array<{key: string; value: string | number}> = [];
	for (const field of channel.fields) {
		if (!field.is_unique) continue;
		const number = Number(name);
		const value = field.type === 'number' ? (name.trim() !== '' && Number.isFinite(number) ? number : undefined) : name;
		if (value !== undefined) probes.push({key: field.key, value});
	}

	return probes;
}
