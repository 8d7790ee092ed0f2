// Cell widths live in source/text/width.ts, shared with the command line's tables; the TUI keeps importing them from here.
export {cellWidth, codeWidth, fit, truncate} from '../text/width.js';
