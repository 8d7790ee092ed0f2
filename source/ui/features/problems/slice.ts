// `:problems`: every problem the config file has, the ones `sift doctor` finds (config/config.ts
// configProblems), one a line, each naming its line and key, wrapped to the screen so none is cut;
// scrolled like the help.

import {counted} from '../../../text/format.js';
import type {ScreenState} from '../../state.js';
import {cellWidth} from '../../width.js';
import {bodyRows} from '../rows.js';
import {none, say, type OverlaySlice} from '../feature.js';

declare module '../../state.js' {
	interface EventVariants {
		/** Every problem of the config, once the database's other channels were read after the first rows (first-screen.ts readOtherChannels). */
		problems: {type: 'configProblemsChecked'; problems: string[]};
	}
}

/** The whole list of problems in place of the first frame's: the footer's count follows when it still shows the old one (or nothing). */
function problemsChecked(state: ScreenState, problems: string[]): ScreenState {
	const shown = problemsMessage(state.configProblems);
	const footerHadCount = state.message === null || (shown !== undefined && state.message.text === shown.text);
	return {...state, configProblems: problems, message: footerHadCount ? problemsMessage(problems) ?? null : state.message};
}

/** The footer's word on the config's problems when the screen opens: how many, and where to read them. */
export const problemsMessage = (problems: readonly string[]) => (problems.length === 0 ? undefined : {text: `${counted(problems.length, 'problem')} in the config file (ignored): :problems lists them`, tone: 'warn' as const});

/**
 * The screen's lines: each problem starts a line and goes on, indented, on as many as it needs
 * to fit `width` cells (broken at spaces when a word fits, else anywhere).
 */
export function problemLines(problems: readonly string[], width: number): string[] {
	const room = Math.max(4, width);
	const lines: string[] = [];
	for (const problem of problems) {
		let line = '';
		const indent = '  ';
		for (const word of problem.split(' ')) {
			const candidate = line === '' ? word : `${line} ${word}`;
			if (cellWidth(candidate) <= room) {
				line = candidate;
				continue;
			}

			if (line.trim() !== '') lines.push(line);
			line = indent + word;
			// A word longer than a line is cut into lines of its own.
			while (cellWidth(line) > room) {
				const [head, rest] = splitAt(line, room);
				lines.push(head);
				line = indent + rest;
			}
		}

		lines.push(line);
	}

	return lines;
}

/** `text` cut after `cells` cells. */
function splitAt(text: string, cells: number): [string, string] {
	let used = 0;
	let at = 0;
	for (const char of text) {
		const width = cellWidth(char);
		if (used + width > cells) break;
		used += width;
		at += char.length;
	}

	return [text.slice(0, at), text.slice(at)];
}

/** The title line's rows; the rest of the body holds problem lines. */
export const PROBLEMS_TITLE_ROWS = 1;

/** How far the screen can scroll: its last screen shows the last line. */
function maxScroll(state: ScreenState): number {
	const room = Math.max(1, bodyRows(state) - PROBLEMS_TITLE_ROWS);
	return Math.max(0, problemLines(state.configProblems, state.size.columns).length - room);
}

function scrollTo(state: ScreenState, scroll: number): ScreenState {
	return {...state, overlay: {kind: 'problems', scroll: Math.min(maxScroll(state), Math.max(0, scroll))}};
}

/** `:problems` opens the screen, or says there is nothing to read. */
export function openProblems(state: ScreenState): ScreenState {
	if (state.configProblems.length === 0) return say(state, 'The config file has no problems.', 'ok');
	return {...state, overlay: {kind: 'problems', scroll: 0}};
}

export const PROBLEMS = {
	// The help's keys: j/k a line, PgDn/PgUp a screen, Esc closes.
	scope: () => 'help',
	effects: {},
	scopes: {},
	bindings: [],
	keys: {
		cursor: (state, overlay, {delta}) => none(scrollTo(state, overlay.scroll + delta)),
		page: (state, overlay, {pages}) => none(scrollTo(state, overlay.scroll + pages * Math.max(1, bodyRows(state) - PROBLEMS_TITLE_ROWS - 1))),
		cancel: state => none({...state, overlay: {kind: 'none'}}),
	},
	events: {
		openProblems: state => none(openProblems(state)),
		configProblemsChecked: (state, {problems}) => none(problemsChecked(state, problems)),
	},
} satisfies OverlaySlice<'problems', 'openProblems' | 'configProblemsChecked'>;
