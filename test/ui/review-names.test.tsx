// The review queue names records by their unique key (BUG-299), as the list does, never by their
// internal ids, the proposals after the current one included; drawn through the registry's view.

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {screenLayout} from '../../source/ui/layout.js';
import {FEATURES} from '../../source/ui/registry.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';
import {idOf, reviewing} from './overlays/fixtures.js';

describe('the review queue', () => {
	it('names the current and the next proposals\' records by their ticket', () => {
		const state = reviewing();
		const layout = screenLayout(state.size, state.overlay, state.pane);
		const overlay = state.overlay as Extract<typeof state.overlay, {kind: 'review'}>;
		const node = FEATURES.review.view.render(overlay, {state, layout, pane: null, runs: {runs: [], views: {}, latest: null, watch: null}, now: 0, frame: 0});
		const frame = render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}>{node}</ThemeProvider>).lastFrame() ?? '';
		expect(frame).toContain('· BUG-300 ·');
		expect(frame).toContain('#2 BUG-299:');
		expect(frame).not.toContain(idOf(299));
		expect(frame).not.toContain(idOf(300));
	});
});
