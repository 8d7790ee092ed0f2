// A field hotkey's pane: numbered choices on the current value, none, typed prefixes, a date's ISO
// preview, the bulk field chooser.

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {bugsChannel} from '../../demo-data/generate.js';
import type {Field} from '../../store/index.js';
import {FieldEditPane} from '../../source/ui/features/field-edit/view.js';
import {resolveHotkeys} from '../../source/ui/model/hotkeys.js';
import {openPicker, typeInPicker} from '../../source/ui/model/picker.js';
import type {FieldEditOverlay} from '../../source/ui/state.js';
import {textState} from '../../source/ui/text-input.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';

// The pane a field hotkey opens, drawn on its own.

const fields = bugsChannel.fields as unknown as Field[];
const field = (key: string) => fields.find(candidate => candidate.key === key)!;
const {hotkeys} = resolveHotkeys(fields);
const target = {id: 'it_1', version: 3, values: {ticket: 'BUG-0001', status: 'triaged'}, name: 'BUG-0001'};
const base: FieldEditOverlay = {kind: 'fieldEdit', field: null, fieldCursor: 0, chooser: true, targets: [target], bulk: false, picker: null, text: null, now: new Date(2026, 11, 1, 12).getTime(), notice: null};

function show(overlay: FieldEditOverlay, width = 60) {
	const {lastFrame} = render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}><FieldEditPane overlay={overlay} fields={fields} hotkeys={hotkeys} width={width} height={12}/></ThemeProvider>);
	return lastFrame() ?? '';
}

describe('FieldEditPane', () => {
	it('numbers the choices, sits on the current value, and ends an optional field with none', () => {
		const frame = show({...base, field: field('status'), picker: openPicker(field('status'), 'triaged')});
		expect(frame).toContain('BUG-0001 · Status');
		expect(frame).toMatch(/› 2 Triaged\s+triaged/);
		expect(frame).toContain('6 none');
		expect(frame).toContain('1–9 pick · type to jump · Enter · Esc');
	});

	it('says when a typed letter matches nothing, and shows what was typed', () => {
		const picker = openPicker(field('status'), 'new');
		const missed = typeInPicker(picker, 'z');
		expect(show({...base, field: field('status'), picker: missed.state, notice: missed.notice!})).toContain('no choice starts with "z"');
		expect(show({...base, field: field('status'), picker: typeInPicker(picker, 'w').state})).toContain('type to jump (w)');
	});

	it('shows the ISO date a relative date means before it is saved, and a refusal naming the forms', () => {
		expect(show({...base, field: field('due'), text: textState('friday')})).toContain('friday → 2026-12-04');
		expect(show({...base, field: field('due'), text: textState('someday')}, 200)).toMatch(/not a date: "someday"; use YYYY-MM-DD/);
	});

	it('chooses the field of a bulk edit with each field\'s hotkey beside it, without unique or long fields', () => {
		const frame = show({...base, bulk: true, targets: [target, {...target, id: 'it_2', name: 'BUG-0002'}]});
		expect(frame).toContain('Edit 2 marked rows: which field?');
		expect(frame).toMatch(/Status\s+\(s\)/);
		expect(frame).not.toContain('Ticket');
		expect(frame).not.toContain('Description');
	});
});
