// The problems slice (source/ui/overlays/problems.ts) through the root reducer: `:problems`, its
// scroll, and the lines it wraps so no problem is cut. CASES is typed over the slice's events.

import {describe, expect, it} from 'vitest';
import {problemLines, problemsMessage, PROBLEMS} from '../../../source/ui/features/problems/slice.js';
import {keyEvents} from '../../../source/ui/registry.js';
import {scopeOf} from '../../../source/ui/registry.js';
import {initialScreen, reduce} from '../../../source/ui/reducer.js';
import {bodyRows} from '../../../source/ui/features/rows.js';
import {cellWidth} from '../../../source/ui/width.js';
import {fields, page, plain} from './fixtures.js';

const PROBLEMS_OF_A_FILE = Array.from({length: 30}, (_, index) => `config.yaml line ${index + 1}: hotkeys.f${index}: "f${index}" is not a field of this channel; fields: ticket, title, description, status, owner, severity; using the default`);

function withProblems(problems: string[], rows = 24) {
	const {state} = initialScreen({channelId: 'bugs', fields, size: {columns: 80, rows}, total: 300, followUpCount: 0, configProblems: problems, message: problemsMessage(problems)});
	return reduce(state, {type: 'listed', generation: 1, query: {}, page: page(300, 20, false)}).state;
}

const CASES: {[T in keyof typeof PROBLEMS.events]: () => void} = {
	openProblems() {
		const state = withProblems(PROBLEMS_OF_A_FILE);
		// The footer says how many, not the problems themselves run together.
		expect(state.message).toEqual({text: '30 problems in the config file (ignored): :problems lists them', tone: 'warn'});
		const open = reduce(state, {type: 'openProblems'}).state;
		expect(open.overlay).toEqual({kind: 'problems', scroll: 0});
		expect(scopeOf(open.overlay)).toBe('help');
		// j scrolls a line, PgDn a screen, never past the last line; Esc closes.
		const down = reduce(open, {type: 'key', input: 'j', key: plain}).state;
		expect(down.overlay).toEqual({kind: 'problems', scroll: 1});
		let paged = down;
		for (let press = 0; press < 20; press++) paged = reduce(paged, {type: 'page', pages: 1}).state;
		// The last screen: the body less its title line.
		const last = problemLines(PROBLEMS_OF_A_FILE, 80).length - (bodyRows(open) - 1);
		expect(last).toBeGreaterThan(0);
		expect(paged.overlay).toMatchObject({kind: 'problems', scroll: last});
		expect(reduce(paged, {type: 'cursor', delta: -1}).state.overlay).toMatchObject({scroll: last - 1});
		expect(keyEvents('help', '\u001b', {...plain, escape: true})).toEqual([{type: 'cancel'}]);
		expect(reduce(paged, {type: 'cancel'}).state.overlay).toEqual({kind: 'none'});
		// With none, it says so and opens nothing.
		const clean = withProblems([]);
		expect(clean.message).toBeNull();
		const said = reduce(clean, {type: 'openProblems'}).state;
		expect(said.overlay).toEqual({kind: 'none'});
		expect(said.message).toEqual({text: 'The config file has no problems.', tone: 'ok'});
	},
	configProblemsChecked() {
		// The other channels read after the first rows: the whole list replaces the first frame's, and the footer's count follows.
		const first = withProblems(PROBLEMS_OF_A_FILE.slice(0, 1));
		const checked = reduce(first, {type: 'configProblemsChecked', problems: PROBLEMS_OF_A_FILE.slice(0, 2)}).state;
		expect(checked.configProblems).toEqual(PROBLEMS_OF_A_FILE.slice(0, 2));
		expect(checked.message).toEqual({text: '2 problems in the config file (ignored): :problems lists them', tone: 'warn'});
		// A footer saying something else keeps it.
		const busy = {...first, message: {text: 'Saved.', tone: 'ok' as const}};
		expect(reduce(busy, {type: 'configProblemsChecked', problems: PROBLEMS_OF_A_FILE.slice(0, 2)}).state.message).toEqual({text: 'Saved.', tone: 'ok'});
	},
};

describe('the problems slice', () => {
	for (const [type, test] of Object.entries(CASES)) it(type, test);

	it('each problem starts its own line and wraps to the width, every word kept', () => {
		const problems = [PROBLEMS_OF_A_FILE[0]!, 'config.yaml line 9: views[0].query: 看看这个很长的词语看看这个很长的词语看看这个很长的词语看看这个很长的词语看看这个很长的词语 left out'];
		const lines = problemLines(problems, 40);
		expect(lines[0]).toMatch(/^config\.yaml line 1: /);
		expect(lines.findIndex(line => line.startsWith('config.yaml line 9'))).toBeGreaterThan(1);
		for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(40);
		for (const line of lines.filter(line => !line.startsWith('config.yaml'))) expect(line.startsWith('  ')).toBe(true);
		expect(lines.map(line => line.trim()).join(' ').replaceAll(' ', '')).toBe(problems.join(' ').replaceAll(' ', ''));
	});
});
