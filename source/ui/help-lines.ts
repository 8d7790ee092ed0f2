// The help screen's lines, made from the bindings the registry (registry.ts) gathers from every
// feature, and how they fit the body.

import type {Field} from '../../store/index.js';
import type {Hotkeys} from '../config/hotkeys.js';
import {fit} from './width.js';

/** A help column is at least this wide, so descriptions are not cut (one column at 80). */
const COLUMN_MIN = 64;

export type HelpLine = {key: string; text: string; bold?: boolean};

/** The help's lines in a state: every binding's, with this channel's field hotkeys (the registry makes them). */
export type HelpLinesOf = (state: {hotkeys: Hotkeys; fields: Field[]}) => HelpLine[];

/** One line per binding, under its scope's title, scopes in the order given. */
export function bindingHelpLines(scopes: ReadonlyArray<{scope: string; title: string}>, bindings: ReadonlyArray<{scope: string; action: string; label: string; description: string}>): HelpLine[] {
	return scopes.flatMap(({scope, title}) => [
		{key: `${scope}-title`, text: title, bold: true},
		...bindings.filter(binding => binding.scope === scope).map(binding => ({key: `${scope}-${binding.action}`, text: `  ${fit(binding.label, 7)} ${binding.description}`})),
	]);
}

/** The help with more lines (the field hotkeys) right after the list's keys. */
export function withHelpLines(lines: HelpLine[], extra: HelpLine[] = []): HelpLine[] {
	if (extra.length === 0) return lines;
	const at = lines.findIndex((line, index) => index > 0 && line.bold);
	return [...lines.slice(0, at), ...extra, ...lines.slice(at)];
}

/** How the help (of `count` lines) fits a body of this size: columns, lines per column, and the furthest scroll. */
export function helpLayout(width: number, height: number, count: number): {columns: number; room: number; maxScroll: number} {
	const room = Math.max(1, height - 1);
	const columns = Math.min(3, Math.max(1, Math.floor(width / COLUMN_MIN)), Math.ceil(count / room));
	return {columns, room, maxScroll: Math.max(0, count - columns * room)};
}
