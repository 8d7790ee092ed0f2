// Field hotkeys on the screen: the footer's hint and the help's lines. What a channel's hotkeys
// are (defaults, the config's overrides, refusals) is config/hotkeys.ts.

import type {Field} from '../../../store/index.js';
import type {Hotkeys} from '../../config/hotkeys.js';
import type {HelpLine} from '../help-lines.js';
import {sanitize} from '../../text/sanitize.js';
import {fit} from '../width.js';

export {fieldForKey, listKeys, resolveHotkeys, takesDefaultHotkey, type HotkeyProblem, type Hotkeys} from '../../config/hotkeys.js';

/** The hotkeys in field order, as the footer and the help show them. */
function inFieldOrder(hotkeys: Hotkeys, fields: Field[]): Array<{letter: string; field: Field}> {
	return fields.filter(field => hotkeys[field.key] !== undefined).map(field => ({letter: hotkeys[field.key]!, field}));
}

/** The footer's hint for the hotkeys: every letter, one hint ("s o v p a d set a field"); null when none. */
export function hotkeyHint(hotkeys: Hotkeys, fields: Field[]): {label: string; hint: string} | null {
	const keys = inFieldOrder(hotkeys, fields);
	return keys.length === 0 ? null : {label: keys.map(({letter}) => letter).join(' '), hint: 'set a field'};
}

/** The help's section on hotkeys: one line per field, in the key table's layout. */
export function hotkeyHelpLines(hotkeys: Hotkeys, fields: Field[]): HelpLine[] {
	const keys = inFieldOrder(hotkeys, fields);
	if (keys.length === 0) return [];
	return [
		{key: 'hotkeys-title', text: 'Field hotkeys (list and full screen; on every marked row when rows are marked)', bold: true},
		...keys.map(({letter, field}) => ({key: `hotkey-${field.key}`, text: `  ${fit(letter, 7)} set ${sanitize(field.label)}`})),
	];
}
