// A process that draws on the alternate screen the way the TUI does, then leaves it. Run from the
// repository root after `npm run build`.
//   (no argument)  dies of an uncaught error thrown from a timer (outside React: nothing catches it)
//   twice          calls restoreTerminal() twice, as a quit and a signal handler both may, then exits
import {enterAltScreen, restoreTerminal} from '../../dist/source/ui/terminal.js';

enterAltScreen();
process.stdout.write('drawn on the alternate screen\r\n');
if (process.argv[2] === 'twice') {
	restoreTerminal();
	restoreTerminal();
	process.exit(0);
}

setTimeout(() => {
	throw new Error('boom from a timer');
}, 100);
