import {useStdout} from '#ink';
import {useEffect, useState} from 'react';

export type TerminalSize = {columns: number; rows: number};

// The real size down to these: a floor above it drew a frame wider and taller than the terminal.
const MIN_COLUMNS = 20;
const MIN_ROWS = 6;

/** The terminal's size now, with the floor. */
export function measure(stdout: NodeJS.WriteStream): TerminalSize {
	return {columns: Math.max(MIN_COLUMNS, stdout.columns || 80), rows: Math.max(MIN_ROWS, stdout.rows || 24)};
}

/** The terminal's size, following resizes (with a floor so layouts never go negative). */
export function useTerminalSize(): TerminalSize {
	const {stdout} = useStdout();
	const [size, setSize] = useState(() => measure(stdout));
	useEffect(() => {
		const update = () => {
			setSize(previous => {
				const next = measure(stdout);
				return next.columns === previous.columns && next.rows === previous.rows ? previous : next;
			});
		};

		stdout.on('resize', update);
		update();
		return () => {
			stdout.off('resize', update);
		};
	}, [stdout]);
	return size;
}
