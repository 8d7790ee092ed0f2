// Text from another tool, made fit to keep: line endings become \n and the C0 control characters
// other than tab and newline are removed (docs/records.md#control-characters). One rule for every
// format sift reads from elsewhere, so a value means the same whichever file brought it.

// eslint-disable-next-line no-control-regex
const C0_EXCEPT_TAB_AND_NEWLINE = /[\u0000-\u0008\u000b-\u001f]/g;

/** `text` with CRLF and lone CR as LF, and the other C0 controls (NUL, ESC, BEL, …) removed. */
export function cleanText(text: string): string {
	return text.replace(/\r\n?/g, '\n').replace(C0_EXCEPT_TAB_AND_NEWLINE, '');
}
