// What sift says while a write waits for another process's write lock: one wording, on stderr
// for commands and in the footer of the TUI.

export const LOCK_WAIT_TEXT = 'waiting for another sift process to finish writing';

/** The line a command prints on stderr, once. */
export const LOCK_WAIT_NOTICE = `sift: ${LOCK_WAIT_TEXT} (an import can take a few minutes)…\n`;

/** The TUI's footer while an edit waits. */
export const LOCK_WAIT_FOOTER = `${LOCK_WAIT_TEXT[0]!.toUpperCase()}${LOCK_WAIT_TEXT.slice(1)}…`;
