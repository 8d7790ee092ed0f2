// A proposed duplicate in the review queue is shown beside the record it names (each by its ticket,
// title and the start of its body, escaped), and a relation reads as the related record's ticket in
// the list and the record pane when that record is loaded, its id otherwise.

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import type {Field} from '../../store/index.js';
import {cellLine} from '../../source/ui/components/list.js';
import {relationNames} from '../../source/ui/format.js';
import {screenLayout} from '../../source/ui/layout.js';
import {recordLines} from '../../source/ui/record-lines.js';
import {reduce} from '../../source/ui/reducer.js';
import {FEATURES} from '../../source/ui/registry.js';
import {plainLine} from '../../source/ui/spans.js';
import type {ScreenState} from '../../source/ui/state.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';
import {fields, idOf, item, proposal, reviewing} from './overlays/fixtures.js';

const DUPLICATE_OF: Field = {key: 'duplicate_of', label: 'Duplicate of', type: 'relation', is_required: false, is_unique: false, config: {channel_id: 'bugs'}};
const withRelation = [...fields, DUPLICATE_OF];

function frameOf(state: ScreenState): string {
	const layout = screenLayout(state.size, state.overlay, state.pane);
	const overlay = state.overlay as Extract<typeof state.overlay, {kind: 'review'}>;
	const node = FEATURES.review.view.render(overlay, {state, layout, pane: null, runs: {runs: [], views: {}, latest: null, watch: null}, now: 0, frame: 0});
	return render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}>{node}</ThemeProvider>).lastFrame() ?? '';
}

describe('a proposed duplicate', () => {
	it('is shown beside its target: ticket, title and the start of the body of each, escaped', () => {
		const queued = reviewing([proposal(1, 300, {duplicate_of: {from: null, to: idOf(120)}, status: {from: 'new', to: 'triaged'}})]);
		const state: ScreenState = {...queued, fields: withRelation};
		const shown = reduce(state, {
			type: 'reviewItem', proposalId: 1,
			item: item(300, 1, {title: 'Export crashes on merged cells', description: 'The CSV exporter segfaults in libcsv.'}),
			target: item(120, 4, {title: 'Segfault exporting CSV \u001b[31mred', description: 'libcsv crashes when cells are merged.'}),
		}).state;
		const frame = frameOf(shown);
		expect(frame).toContain('this record');
		expect(frame).toContain('duplicate of');
		expect(frame).toMatch(/BUG-300 · Export crashes on merged cells.*BUG-120 · Segfault exporting CSV/);
		expect(frame).toMatch(/The CSV exporter segfaults.*libcsv crashes when cells/);
		expect(frame).not.toContain('\u001b[31m');
		// Without the target read, the pair still names it by what is loaded, and says it is not read.
		expect(frameOf(state)).toContain('(not read yet, or gone)');
		// A proposal that names no duplicate shows no pair.
		expect(frameOf({...reviewing(), fields: withRelation})).not.toContain('duplicate of');
	});

	it('a relation reads as the loaded target\'s ticket in the list and the record pane, else as its id', () => {
		const names = relationNames(withRelation, [{id: idOf(120), preview: {ticket: 'BUG-120'}}]);
		expect(plainLine(cellLine({field: DUPLICATE_OF, width: 10, flex: false}, idOf(120), '2026-01-01', names))).toBe('BUG-120   ');
		expect(plainLine(cellLine({field: DUPLICATE_OF, width: 10, flex: false}, idOf(7), '2026-01-01', names))).toBe(idOf(7).padEnd(10));
		const lines = recordLines({fields: withRelation, item: item(300, 2, {duplicate_of: idOf(120)}), flagged: new Set(), width: 60, today: '2026-01-01', names}).map(line => plainLine(line));
		expect(lines.find(line => line.startsWith('Duplicate of'))).toContain('BUG-120');
	});
});
