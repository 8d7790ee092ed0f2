// The run pane's stall notice.

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {RunPane} from '../../source/ui/components/run-pane.js';
import {runReducer, type RunView} from '../../source/ui/model/runs.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';

const STALL = 'no progress from Codex for 60 s (last: list_record_items bugs (running))';

function started(): RunView {
	return runReducer(null, {type: 'start', runId: 'run-1', instruction: 'Triage', itemIds: ['a'], at: 0})!;
}

const paneText = (run: RunView) =>
	render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}><RunPane run={run} now={61_000} frame={0} width={100} height={12}/></ThemeProvider>).lastFrame() ?? '';

describe('a stalled run in the run pane', () => {
	it('shows the stall notice until Codex is heard from again', () => {
		const stalled = runReducer(started(), {type: 'update', runId: 'run-1', update: {type: 'stall', message: STALL}})!;
		expect(paneText(stalled)).toContain(`! ${STALL}`);
		const heard = runReducer(stalled, {type: 'update', runId: 'run-1', update: {type: 'text', text: 'Working on it'}})!;
		expect(heard.stall).toBeNull();
		expect(paneText(heard)).not.toContain('no progress from Codex');
	});
});
