// The demo bugs channel's fields, as the models get them from the store.

import channelFile from '../../../demo-data/bugs.channel.json' with {type: 'json'};
import type {Field} from '../../../store/index.js';

export const demoFields = channelFile.channel.fields as Field[];

export function demoField(key: string): Field {
	const field = demoFields.find(candidate => candidate.key === key);
	if (!field) throw new Error(`the demo channel has no field ${key}`);
	return field;
}

/** A field of the given shape, for the cases the demo channel lacks. */
export const fieldOf = (field: Partial<Field> & Pick<Field, 'key' | 'type'>): Field => ({label: field.key, is_required: false, is_unique: false, config: {}, ...field});
