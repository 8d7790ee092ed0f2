// Components on their own.

import {render} from 'ink-testing-library';
import type {ReactElement} from 'react';
import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field, FollowUp} from '../../store/index.js';
import type {RunView} from '../../source/ui/model/runs.js';
import {List} from '../../source/ui/components/list.js';
import {Picker} from '../../source/ui/components/picker.js';
import {Queue} from '../../source/ui/features/followups/view.js';
import {RunPane} from '../../source/ui/components/run-pane.js';
import {Detail} from '../../source/ui/components/detail.js';
import {Help} from '../../source/ui/features/help/view.js';
import {helpLayout} from '../../source/ui/help-lines.js';
import {optionChoices} from '../../source/ui/edit.js';
import {chooseColumns} from '../../source/ui/format.js';
import {BINDINGS, HELP_LINES} from '../../source/ui/registry.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';

const fields = bugsChannel.fields as unknown as Field[];
const field = (key: string) => fields.find(candidate => candidate.key === key)!;

/** Renders with colors on or off; frames are compared as text. */
function show(node: ReactElement, colorful = false) {
	return render(<ThemeProvider theme={makeTheme(colorful ? {} : {NO_COLOR: '1'})}>{node}</ThemeProvider>);
}

const plain = (frame: string | undefined) => (frame ?? '').replaceAll(/\u001b\[[\d;]*m/g, '');

const row = (id: string, preview: Record<string, unknown>) => ({id, version: 1, updated_at: '', preview});

describe('List', () => {
	const rows = [
		row('it_3', {ticket: 'BUG-0003', title: 'Sync stalls after resume', status: 'in_progress', owner: 'aiko', severity: 's2', points: 5}),
		row('it_2', {ticket: 'BUG-0002', title: 'Crash log pasted raw: \u001b[31mFATAL\u001b[0m \u001b]0;pwned\u0007 name\u202etxt.exe', status: 'new'}),
		row('it_1', {ticket: 'BUG-0001', title: 'Status from an old import', status: 'In progress'}),
	];
	const columns = chooseColumns(fields, 118);

	it('shows select values as their labels, and a value that matches no option raw', () => {
		const {lastFrame} = show(<List rows={rows} columns={columns} top={0} cursor={0} height={10} width={120} marks={new Set()} changed={new Set()} empty="none"/>);
		const frame = plain(lastFrame());
		const lines = frame.split('\n');
		expect(lines[0]).toMatch(/Ticket\s+Title\s+Status\s+Owner\s+Severity\s+Points/);
		expect(lines[1]).toMatch(/BUG-0003 .*In progress\s+Aiko\s+S2 Major\s+5/);
		expect(lines[1]).not.toContain('in_progress');
		// "In progress" is a label, not a value: stored as is it must not pass for the option.
		expect(lines[3]).toContain('In progress');
	});

	it('renders escape sequences in record text inert and visible', () => {
		const {lastFrame} = show(<List rows={rows} columns={chooseColumns(fields, 200)} top={0} cursor={0} height={10} width={200} marks={new Set()} changed={new Set()} empty="none"/>);
		const frame = lastFrame() ?? '';
		expect(frame).toContain('␛[31mFATAL␛[0m');
		expect(frame).toContain('␛]0;pwned␇');
		expect(frame).toContain('name\\u202etxt.exe');
		expect(frame).not.toContain('\u001b]');
		expect(frame).not.toContain('\u202e');
	});

	it('marks rows, shows the live-change marker, and scrolls by top', () => {
		const {lastFrame} = show(<List rows={rows} columns={columns} top={1} cursor={1} height={3} width={120} marks={new Set(['it_2'])} changed={new Set(['it_1'])} empty="none"/>);
		const lines = plain(lastFrame()).split('\n');
		expect(lines).toHaveLength(3);
		expect(lines[1]).toMatch(/^● BUG-0002/);
		expect(lines[2]).toMatch(/^ •BUG-0001/);
	});

	it('says so when nothing is there', () => {
		const {lastFrame} = show(<List rows={[]} columns={columns} top={0} cursor={0} height={5} width={120} marks={new Set()} changed={new Set()} empty="Nothing matches."/>);
		expect(lastFrame()).toContain('Nothing matches.');
	});
});

describe('Picker', () => {
	it('lists the options with their labels and values, the cursor on one, and a clear choice', () => {
		const {lastFrame} = show(<Picker title="BUG-0001 · Status" choices={optionChoices(field('status'))} cursor={2} width={60} height={10}/>);
		const lines = plain(lastFrame()).split('\n');
		expect(lines[0]).toBe('BUG-0001 · Status');
		expect(lines.slice(1, 7).map(line => line.trim())).toEqual(['New  new', 'Triaged  triaged', '› In progress  in_progress', 'Fixed  fixed', 'Won\'t fix  wont_fix', '(clear)  null']);
	});

	it('ticks choices for multiple choice and shows notes under them', () => {
		const multi: Field = {key: 'tags', label: 'Tags', type: 'multi_select', is_required: false, is_unique: false, config: {options: [{value: 'ui', label: 'UI'}, {value: 'api', label: 'API'}]}};
		const {lastFrame} = show(<Picker title="Tags" multiple choices={optionChoices(multi, ['api'])} cursor={0} width={60} height={6} notes={[{text: 'Refused: values.tags …', tone: 'error'}]}/>);
		const frame = plain(lastFrame());
		expect(frame).toContain('› [ ] UI');
		expect(frame).toContain('[x] API');
		expect(frame).toContain('Refused: values.tags');
	});

	it('scrolls to keep the cursor visible', () => {
		const choices = Array.from({length: 30}, (_, index) => ({key: String(index), segments: [{text: `choice ${index}`}]}));
		const {lastFrame} = show(<Picker title="many" choices={choices} cursor={25} width={40} height={6}/>);
		const frame = plain(lastFrame());
		expect(frame).toContain('› choice 25');
		expect(frame).not.toContain('choice 3\n');
	});
});

const baseRun: RunView = {
	runId: 'run-20250101T000000000Z-abc123',
	instruction: 'Triage these 3 records',
	itemIds: ['a', 'b', 'c'],
	startedAt: 1_000,
	finishedAt: null,
	steps: [
		{id: 's1', kind: 'mcp_tool_call', label: 'list_record_items bugs', status: 'done', result: '3 items'},
		{id: 's2', kind: 'mcp_tool_call', label: 'edit_record_item BUG-0042', status: 'done', result: 'ok v3'},
		{id: 's3', kind: 'mcp_tool_call', label: 'edit_record_item BUG-0043', status: 'failed', result: 'rejected: points, due'},
		{id: 's4', kind: 'mcp_tool_call', label: 'read_record_item BUG-\u001b[31m0044', status: 'running', result: null},
	],
	text: '',
	notices: [],
	warnings: [],
	usage: null,
	cancelling: false,
	result: null,
	crash: null,
};

const result = (outcome: string, extra: Record<string, unknown> = {}) => ({
	runId: baseRun.runId, outcome, text: 'Set BUG-0042.', error: null, usage: {input_tokens: 5120, cached_input_tokens: 1024, output_tokens: 312}, durationMs: 4200, steps: baseRun.steps, warnings: [],
	editsApplied: 1, rejections: 1, followupsOpened: 2, logPath: '/tmp/x.jsonl', exitCode: 0, signal: null, stderrTail: '', pid: 1, ...extra,
}) as unknown as RunView['result'];

describe('RunPane', () => {
	it('shows live steps: a spinner on running ones, ✓ and ✗ on finished ones, short results, elapsed time', () => {
		const {lastFrame} = show(<RunPane run={baseRun} now={13_300} frame={0} width={80} height={12}/>);
		const lines = plain(lastFrame()).split('\n');
		expect(lines[0]).toMatch(/⠋ Codex running 12\.3s · 3 items · 4 steps · x cancels/);
		expect(lines[1]).toBe('› Triage these 3 records');
		expect(lines[2]).toMatch(/^✓ list_record_items bugs {2}3 items/);
		expect(lines[3]).toMatch(/^✓ edit_record_item BUG-0042 {2}ok v3/);
		expect(lines[4]).toMatch(/^✗ edit_record_item BUG-0043 {2}rejected: points, due/);
		expect(lines[5]).toMatch(/^⠋ read_record_item BUG-␛\[31m0044/);
	});

	it('shows the answer, the outcome, the elapsed time and usage when done', () => {
		const done = {...baseRun, finishedAt: 5_200, text: 'Set BUG-0042 to in_progress.\u001b]0;x\u0007', result: result('ok')};
		const frame = plain(show(<RunPane run={done} now={9_999} frame={3} width={80} height={14}/>).lastFrame());
		expect(frame).toContain('✓ Codex ok in 4.2s');
		expect(frame).toContain('Answer:');
		expect(frame).toContain('Set BUG-0042 to in_progress.␛]0;x␇');
		expect(frame).toContain('- read_record_item BUG-␛[31m0044  (never finished)');
		expect(frame).toContain('usage: 5,120 in (1,024 cached) · 312 out · 1 edit · 1 refused · 2 follow-ups');
	});

	it('explains auth_required and codex_missing with the fix', () => {
		const auth = {...baseRun, steps: [], finishedAt: 2_000, result: result('auth_required', {error: 'Codex is not logged in (401 Unauthorized).', usage: null})};
		const authFrame = plain(show(<RunPane run={auth} now={0} frame={0} width={100} height={12}/>).lastFrame());
		expect(authFrame).toContain('✗ Codex auth_required');
		expect(authFrame).toContain('codex login');
		const missing = {...baseRun, steps: [], finishedAt: 2_000, result: result('codex_missing', {error: 'Codex CLI not found at /nope.', usage: null})};
		const missingFrame = plain(show(<RunPane run={missing} now={0} frame={0} width={100} height={12}/>).lastFrame());
		expect(missingFrame).toContain('Codex CLI not found at /nope.');
		expect(missingFrame).toContain('npm install -g @openai/codex');
		expect(missingFrame).toContain('--codex PATH');
	});

	it('says when a run was cancelled', () => {
		const cancelled = {...baseRun, finishedAt: 3_000, result: result('cancelled', {error: 'Cancelled: Codex and every process it started were stopped.'})};
		const frame = plain(show(<RunPane run={cancelled} now={0} frame={0} width={100} height={14}/>).lastFrame());
		expect(frame).toContain('✗ Codex cancelled');
		expect(frame.split('every process it started were stopped')).toHaveLength(2);
	});
});

const followUp = (extra: Partial<FollowUp>): FollowUp => ({
	id: 1, channel_id: 'bugs', item_id: 'it_0000000001', key: 'status', status: 'open', attempted: 'In progress', message: 'values.status must be one of the option values, got "In progress"',
	run_id: 'run-1', created_at: '', updated_at: '', resolution: null, ...extra,
});

const item = {id: 'it_0000000001', channel_id: 'bugs', version: 3, created_at: '', updated_at: '', values: {ticket: 'BUG-0001', title: 'Sync stalls', status: 'new', points: 5}};

describe('Queue', () => {
	it('shows the record, the field, what was tried, why it was refused, and the allowed options with labels', () => {
		const entry = {followUp: followUp({allowed: field('status').config.options!.map(({value, label}) => ({value, label}))}), item};
		const frame = plain(show(<Queue entry={entry} index={0} total={2} field={field('status')} nameKeys={['ticket', 'title']} optionCursor={2} now={0} typing={null} problem={null} confirmDismiss={false} width={100} height={20}/>).lastFrame());
		expect(frame).toContain('Follow-up 1 of 2 · BUG-0001 · Sync stalls · v3');
		expect(frame).not.toContain('it_0000000001');
		expect(frame).toMatch(/Field: Status \(status\) · now: New/);
		expect(frame).toContain('Codex tried: In progress  (run-1)');
		expect(frame).toContain('Why: values.status must be one of the option values, got "In progress"');
		expect(frame).toContain('› In progress  in_progress');
		expect(frame).toContain('Won\'t fix  wont_fix');
	});

	it('shows the range for numbers, a typed value, a refusal and the dismiss question', () => {
		const entry = {followUp: followUp({key: 'points', attempted: 20, message: 'values.points must be between 0 and 13, got 20', min: 0, max: 13}), item};
		const frame = plain(show(<Queue entry={entry} index={1} total={2} field={field('points')} nameKeys={['ticket']} optionCursor={0} now={0} typing={{value: '21', pos: 2}} problem="Refused: values.points must be between 0 and 13, got 21" confirmDismiss width={100} height={20}/>).lastFrame());
		expect(frame).toContain('Codex tried: 20');
		expect(frame).toContain('Allowed: 0 to 13');
		expect(frame).toContain('Value: 21');
		expect(frame).toContain('Refused: values.points must be between 0 and 13, got 21');
		expect(frame).toContain('Dismiss this follow-up?');
	});

	it('shows the ISO date a typed relative date will write, as the field edit does', () => {
		// Monday 2026-11-30, local time: friday is 2026-12-04.
		const now = new Date(2026, 10, 30, 12).getTime();
		const entry = {followUp: followUp({key: 'due', attempted: 'Friday', message: 'values.due must be a date'}), item};
		const frame = plain(show(<Queue entry={entry} index={0} total={1} field={field('due')} nameKeys={['ticket']} optionCursor={0} now={now} typing={{value: 'friday', pos: 6}} problem={null} confirmDismiss={false} width={100} height={20}/>).lastFrame());
		expect(frame).toContain('friday → 2026-12-04');
		const refused = plain(show(<Queue entry={entry} index={0} total={1} field={field('due')} nameKeys={['ticket']} optionCursor={0} now={now} typing={{value: 'someday', pos: 7}} problem={null} confirmDismiss={false} width={200} height={20}/>).lastFrame());
		expect(refused).toMatch(/not a date: "someday"; use YYYY-MM-DD/);
	});

	it('says when the queue is empty', () => {
		const frame = plain(show(<Queue entry={null} index={0} total={0} field={null} nameKeys={[]} optionCursor={0} now={0} typing={null} problem={null} confirmDismiss={false} width={100} height={10}/>).lastFrame());
		expect(frame).toContain('No open follow-ups');
	});
});

describe('Help', () => {
	it('lists every binding of the key table', () => {
		const frame = plain(show(<Help width={200} height={72} lines={HELP_LINES}/>).lastFrame());
		for (const binding of BINDINGS) {
			expect(frame).toContain(binding.description);
		}
	});

	it('fits 80×24 in one column of whole lines, and scrolling shows every binding', () => {
		// The body at 80×24: the header and the two footer lines take four rows.
		const {maxScroll, room} = helpLayout(80, 20, HELP_LINES.length);
		const seen = new Set<string>();
		const scrolls = [...Array.from({length: Math.ceil(maxScroll / (room - 1))}, (_, index) => index * (room - 1)), maxScroll];
		for (const scroll of scrolls) {
			const frame = plain(show(<Help width={80} height={20} scroll={scroll} lines={HELP_LINES}/>).lastFrame());
			const lines = frame.split('\n');
			expect(lines.length).toBeLessThanOrEqual(20);
			for (const line of lines) {
				expect(line.length).toBeLessThanOrEqual(80);
				seen.add(line.trim());
			}
		}

		const last = plain(show(<Help width={80} height={20} scroll={maxScroll} lines={HELP_LINES}/>).lastFrame());
		expect(last).toContain(`of ${HELP_LINES.length}, j/k scroll`);
		for (const binding of BINDINGS) {
			expect([...seen].some(line => line.endsWith(binding.description)), binding.description).toBe(true);
		}
	});
});

describe('NO_COLOR', () => {
	it('turns every color off but keeps attributes', () => {
		expect(makeTheme({NO_COLOR: '1'}).color('red')).toBeUndefined();
		expect(makeTheme({}).color('red')).toBe('red');
		expect(makeTheme({}).color('constructor')).toBeUndefined();
		const {lastFrame} = show(<Picker title="t" choices={optionChoices(field('severity'))} cursor={0} width={40} height={6}/>);
		expect(lastFrame()).not.toMatch(/\u001b\[3\dm/);
	});
});

describe('Detail', () => {
	const fields = bugsChannel.fields as Field[];
	const longItem = {
		id: 'it_0000000007', channel_id: 'bugs', version: 1, created_at: '', updated_at: '2026-11-30T00:00:00Z',
		values: {ticket: 'BUG-0007', title: 'Long one', status: 'new', description: Array.from({length: 30}, (_, index) => `line ${index + 1}`).join('\n')},
	};

	it('shows what fits and says how much more lies below', () => {
		const frame = plain(show(<Detail fields={fields} item={longItem} error={null} flagged={new Set()} width={60} height={12}/>).lastFrame());
		expect(frame).toContain('BUG-0007');
		expect(frame).not.toContain('line 30');
		expect(frame).toMatch(/↓ \d+ more lines \(J\)/);
	});

	it('scrolls, clamped so the last line stays on the pane', () => {
		const frame = plain(show(<Detail fields={fields} item={longItem} error={null} flagged={new Set()} width={60} height={12} scroll={500}/>).lastFrame());
		expect(frame).toContain('line 30');
		expect(frame).toMatch(/↑ \d+ more lines \(K\)/);
		expect(frame).not.toMatch(/more lines \(J\)/);
	});
});

describe('Help in columns', () => {
	it('keeps two blank cells between columns, so a cut line never runs into the next column', () => {
		for (const width of [128, 140, 200]) {
			const {columns} = helpLayout(width, 30, HELP_LINES.length);
			expect(columns, `${width}`).toBeGreaterThan(1);
			const columnWidth = Math.floor(width / columns);
			const lines = plain(show(<Help width={width} height={30} lines={HELP_LINES}/>).lastFrame()).split('\n').slice(1);
			for (const line of lines) {
				for (let column = 1; column < columns; column++) {
					const edge = column * columnWidth;
					if (line.length > edge) expect(line.slice(edge - 2, edge), `${width}: ${line}`).toBe('  ');
				}
			}
		}
	});
});
