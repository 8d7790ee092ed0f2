// The floor: Node + React + the vendored Ink drawing 40 rows of text, nothing else.
import React from 'react';
import {render, Box, Text} from '#ink';
const rows = Array.from({length: 38}, (_, i) => `  BUG-${String(1000 - i).padStart(4, '0')} Export to CSV stalls after the first page of results     New     alice   high   3   billing  row ${i + 1}`);
const app = render(React.createElement(Box, {flexDirection: 'column'}, React.createElement(Text, {bold: true}, 'sift · bugs · row 1 of 1,000'), ...rows.map((row, i) => React.createElement(Text, {key: i, wrap: 'truncate-end', inverse: i === 0}, row))));
process.stdin.setRawMode(true); process.stdin.on('data', () => { app.unmount(); process.exit(0); });
