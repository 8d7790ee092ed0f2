import {BINDINGS, SCOPE_TITLES, type Scope} from './keys.js';
import {fit} from './width.js';

// The help screen's lines, straight from the key table, and how they fit the body.

const ORDER: Scope[] = ['list', 'record', 'board', 'picker', 'choice', 'text', 'queue', 'history', 'review', 'help', 'confirm'];
/** A help column is at least this wide, so descriptions are not cut (one column at 80). */
const COLUMN_MIN = 64;

export type HelpLine = {key: string; text: string; bold?: boolean};

/** Every key, straight from the key table, one line each under its scope's title. */
export const HELP_LINES: HelpLine[] = ORDER.flatMap(scope => [
	{key: `${scope}-title`, text: SCOPE_TITLES[scope], bold: true},
	...BINDINGS.filter(binding => binding.scope === scope).map(binding => ({key: `${scope}-${binding.action}`, text: `  ${fit(binding.label, 7)} ${binding.description}`})),
]);

/** The help with more lines (the field hotkeys) after the list's keys. */
export function helpLines(extra: HelpLine[] = []): HelpLine[] {
	if (extra.length === 0) return HELP_LINES;
	const at = HELP_LINES.findIndex(line => line.key === 'picker-title');
	return [...HELP_LINES.slice(0, at), ...extra, ...HELP_LINES.slice(at)];
}

/** How the help (of `count` lines) fits a body of this size: columns, lines per column, and the furthest scroll. */
export function helpLayout(width: number, height: number, count = HELP_LINES.length): {columns: number; room: number; maxScroll: number} {
	const room = Math.max(1, height - 1);
	const columns = Math.min(3, Math.max(1, Math.floor(width / COLUMN_MIN)), Math.ceil(count / room));
	return {columns, room, maxScroll: Math.max(0, count - columns * room)};
}
