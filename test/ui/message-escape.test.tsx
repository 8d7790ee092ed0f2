// Messages hold raw text and are escaped once, where the footer draws them: a record value with
// escape sequences, named in a message, never reaches the frame.

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {Footer} from '../../source/ui/components/footer.js';
import {reduce} from '../../source/ui/reducer.js';
import type {ScreenState} from '../../source/ui/state.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';
import {item, listed} from './overlays/fixtures.js';

const HOSTILE = 'BUG-\u001b[31m7\u001b[0m \u001b]0;pwned\u0007';

/** The list with its first row named by a ticket full of escape sequences. */
function hostileList(): ScreenState {
	const state = listed();
	const [first, ...rest] = state.window.rows;
	return {...state, window: {...state.window, rows: [{...first!, preview: {...first!.preview, ticket: HOSTILE}}, ...rest]}};
}

describe('a message naming a record', () => {
	it('keeps the raw name in the state and draws it inert', () => {
		const opened = reduce(hostileList(), {type: 'hotkey', key: 'status', at: 0});
		const picked = reduce(opened.state, {type: 'pickType', input: '2', key: {} as never});
		const request = picked.effects.find(effect => effect.kind === 'edit');
		expect(request?.kind).toBe('edit');
		const saved = reduce(picked.state, {type: 'edited', request: (request as Extract<typeof request, {kind: 'edit'}>)!.request, outcome: {kind: 'ok', result: {ok: true, item: item(300, 2, {ticket: HOSTILE, status: 'triaged'}), sequence: 1}}}).state;
		expect(saved.message?.text).toContain(HOSTILE);
		const frame = render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}><Footer width={200} hints={[]} message={saved.message}/></ThemeProvider>).lastFrame() ?? '';
		expect(frame).toContain('BUG-␛[31m7␛[0m ␛]0;pwned␇: Status');
		expect(frame).not.toContain('\u001b');
		expect(frame).not.toContain('\u0007');
	});

	it('draws a store error inert too', () => {
		const failed = reduce({...listed(), loading: 'after'}, {type: 'loadFailed', generation: 1, message: 'disk \u001b[31mgone'}).state;
		const frame = render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}><Footer width={80} hints={[]} message={failed.message}/></ThemeProvider>).lastFrame() ?? '';
		expect(frame).toContain('disk ␛[31mgone');
		expect(frame).not.toContain('\u001b');
	});
});
