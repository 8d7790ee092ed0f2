// The toolkit's floor for the first-frame bench (ui-first-frame.ts): Node, React and the vendored
// Ink drawing a header and 38 rows of plain text in the bench's pseudo-terminal, and nothing else
// (no store, no config, no styles per cell). Compiled from ES modules, as Node 20 always does for
// them: no code cache. It quits on any key.
//   node dist/test/bench/ink-floor.js

import {Box, render, Text} from '#ink';

const rows = Array.from({length: 38}, (_, index) => `  BUG-${String(1000 - index).padStart(4, '0')} Export to CSV stalls after a password change  New  olu@example.org  339`);
const app = render(
	<Box flexDirection="column">
		<Text bold>sift Bugs 1,000 items · row 1 │ 0 follow-ups</Text>
		{rows.map((row, index) => <Text key={row} wrap="truncate-end" inverse={index === 0}>{row}</Text>)}
	</Box>,
	{exitOnCtrlC: false},
);
process.stdin.setRawMode(true);
process.stdin.once('data', () => {
	app.unmount();
	process.exit(0);
});
