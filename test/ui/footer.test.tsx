// The footer's message line: an error too long for one line takes the hints' line
// too, and a refusal says its fix first, so the fix is never cut off (Codex missing at 80 columns:
// its install command).

import {render} from 'ink-testing-library';
import {describe, expect, it} from 'vitest';
import {codexReady} from '../../source/codex/ready.js';
import {Footer} from '../../source/ui/components/footer.js';
import {refusalText} from '../../source/ui/run-status.js';
import {makeTheme, ThemeProvider} from '../../source/ui/theme.js';

const draw = (text: string, tone: 'info' | 'error', width = 80) => render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}><Footer width={width} hints={[{label: 'j ↓', hint: 'move'}]} message={{text, tone}}/></ThemeProvider>).lastFrame() ?? '';

describe('the footer', () => {
	it('shows the whole fix of the Codex-missing refusal at 80 columns', async () => {
		const refusal = await codexReady({codex: '/nonexistent/sift-test/codex', env: {PATH: '/nonexistent'}, codexConfig: []});
		expect(refusal?.outcome).toBe('codex_missing');
		const text = refusalText(refusal!, 'c');
		expect(text.length).toBeGreaterThan(160);
		const frame = draw(text, 'error');
		const lines = frame.split('\n');
		expect(lines).toHaveLength(2);
		for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
		expect(frame).toContain('No run started: Codex CLI not found. Install it with');
		expect(frame.replace(/\n/g, ' ')).toContain('`npm install -g @openai/codex` or pass --codex PATH, then press c again.');
		expect(text).toContain('/nonexistent/sift-test/codex');
		expect(text.match(/npm install/g)).toHaveLength(1);
	});

	it('keeps a short message and the hints on their own lines, and an info message on one line', () => {
		expect(draw('Not saved.', 'error').split('\n').map(line => line.trimEnd())).toEqual(['Not saved.', 'j ↓ move']);
		const long = `Searching for ${'a '.repeat(60)}`;
		expect(draw(long, 'info').split('\n')[1]).toBe('j ↓ move');
		expect(render(<ThemeProvider theme={makeTheme({NO_COLOR: '1'})}><Footer width={80} hints={[{label: 'j ↓', hint: 'move'}]} message={{text: long, tone: 'warn'}}/></ThemeProvider>).lastFrame()?.split('\n')[1]).toBe('j ↓ move');
	});
});
