// A process that draws on the alternate screen the way the TUI does, then dies of an uncaught
// error thrown from a timer (outside React, so nothing catches it). Run from the repository root
// after `npm run build`.
import {enterAltScreen} from '../../dist/source/ui/terminal.js';

enterAltScreen();
process.stdout.write('drawn on the alternate screen\r\n');
setTimeout(() => {
	throw new Error('boom from a timer');
}, 100);
