/**
 * Field hotkeys: one letter on the list opens the picker (or the date or number input) of one
 * field, so setting a field is two keys. Every short field that is not text gets a default, the
 * first letter of its key that nothing else holds (the demo: s status, o owner, v severity,
 * p points, a area, d due); the config file's `hotkeys` (field key → letter, or none) overrides
 * them. A letter the list already holds (config/key-table.ts) is refused.
 */

import type {Field} from '../../store/index.js';
import {LIST_KEYS, type ListKey} from './key-table.js';

/** Field key → its letter. */
export type Hotkeys = Record<string, string>;

/** A refused override: the field key as written, and why. */
export type HotkeyProblem = {field: string; message: string};

const DEFAULT_TYPES = new Set(['select', 'multi_select', 'boolean', 'number', 'currency', 'percentage', 'rating', 'date']);

/** Fields that get a hotkey without asking: the ones set by a pick or a short input. */
export const takesDefaultHotkey = (field: Field) => DEFAULT_TYPES.has(field.type);

/** The keys the list already uses, with what each does. */
export function listKeys(bindings: Iterable<ListKey> = Object.values(LIST_KEYS)): Map<string, string> {
	const keys = new Map<string, string>();
	for (const binding of bindings) {
		for (const key of binding.keys) keys.set(key, binding.description);
	}

	return keys;
}

/**
 * The hotkeys of a channel: the valid overrides first, then a default for every other field that
 * takes one (a field whose letters are all taken gets none). `none` (or null) turns a field's off.
 */
export function resolveHotkeys(fields: Field[], overrides: Record<string, string | null> = {}, globals = listKeys()): {hotkeys: Hotkeys; problems: HotkeyProblem[]} {
	const hotkeys: Hotkeys = {};
	const holder = new Map<string, string>();
	const problems: HotkeyProblem[] = [];
	const off = new Set<string>();
	const editable = fields.filter(field => field.type !== 'formula');
	for (const [key, letter] of Object.entries(overrides)) {
		const field = fields.find(candidate => candidate.key === key);
		const refuse = (message: string) => problems.push({field: key, message});
		if (!field) {
			refuse(`${JSON.stringify(key)} is not a field of this channel; fields: ${editable.map(other => other.key).join(', ')}`);
		} else if (field.type === 'formula') {
			refuse(`${key} is a formula field, computed when read, and cannot be edited`);
		} else if (letter === null || letter.toLowerCase() === 'none') {
			off.add(key);
		} else if (!/^[a-z]$/i.test(letter)) {
			refuse(`a hotkey is one letter (a–z, A–Z) or none, got ${JSON.stringify(letter)}`);
		} else if (globals.has(letter)) {
			refuse(`${letter} is already the list's key to ${globals.get(letter)}`);
		} else if (holder.has(letter)) {
			refuse(`${letter} is already the hotkey of ${holder.get(letter)}`);
		} else {
			hotkeys[key] = letter;
			holder.set(letter, key);
		}
	}

	for (const field of fields) {
		if (!takesDefaultHotkey(field) || Object.hasOwn(hotkeys, field.key) || off.has(field.key)) {
			continue;
		}

		const letter = [...field.key.toLowerCase()].find(character => /^[a-z]$/.test(character) && !globals.has(character) && !holder.has(character));
		if (letter) {
			hotkeys[field.key] = letter;
			holder.set(letter, field.key);
		}
	}

	return {hotkeys, problems};
}

/** The field a letter edits, if it is a hotkey. */
export function fieldForKey(hotkeys: Hotkeys, letter: string): string | undefined {
	return Object.keys(hotkeys).find(key => hotkeys[key] === letter);
}
