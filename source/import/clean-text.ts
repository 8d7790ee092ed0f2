// Text from another tool, made fit to keep: line endings become \n and the C0 control characters
// other than tab and newline are removed (docs/records.md#control-characters). One rule for every
// format sift reads from elsewhere, so a value means the same whichever file brought it.

const C0_EXCEPT_TAB_AND_NEWLINE = /[\u0000-\u0008\u000b-\u001f]/g;

/** `text` with CRLF and lone CR as LF, and the other C0 controls (NUL, ESC, BEL, …) removed. */
export function cleanText(text: string): string {
	return text.replace(/\r\n?/g, '\n').replace(C0_EXCEPT_TAB_AND_NEWLINE, '');
}

/**
 * The UTF-8 byte order mark. JSON and CSV forbid or ignore it, but editors and Windows tools
 * write one at the start of a file, and it carries no data: every format sift reads skips it, here.
 */
export const BYTE_ORDER_MARK = '\uFEFF';

/** The bytes of the mark at the start of a UTF-8 file. */
export const BYTE_ORDER_MARK_BYTES = Buffer.from(BYTE_ORDER_MARK, 'utf8');

/** A file's text without the byte order mark it may start with. */
export const withoutByteOrderMark = (text: string) => (text.startsWith(BYTE_ORDER_MARK) ? text.slice(BYTE_ORDER_MARK.length) : text);
