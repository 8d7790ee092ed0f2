import {Box, Text} from '#ink';
import type {ReactElement} from 'react';
import type {Field, Item} from '../../../store/index.js';
import {formatValue} from '../../text/format.js';
import {sanitize, sanitizeValue} from '../../text/sanitize.js';
import {useTheme} from '../theme.js';
import {fit, truncate} from '../width.js';

export type DetailProps = {
	fields: Field[];
	item: Item | null;
	error: string | null;
	width: number;
	height: number;
	/** Keys with an open follow-up on this record. */
	flagged: ReadonlySet<string>;
	/** Lines scrolled past (clamped so the last line stays on the pane). */
	scroll?: number;
};

/** Wraps text to `width` cells per line (simple word wrap; long words are cut). */
export function wrapLines(text: string, width: number): string[] {
	const lines: string[] = [];
	for (const paragraph of text.split('\n')) {
		let line = '';
		for (const word of paragraph.split(' ')) {
			if (!line) line = word;
			else if (line.length + 1 + word.length <= width) line += ` ${word}`;
			else {
				lines.push(line);
				line = word;
			}

			while (line.length > width) {
				lines.push(line.slice(0, width));
				line = line.slice(width);
			}
		}

		lines.push(line);
	}

	return lines;
}

/** The lines that fit, from `scroll` on, with a marker where more lies above or below. */
function scrolled(lines: ReactElement[], height: number, scroll: number): ReactElement[] {
	if (lines.length <= height) {
		return lines;
	}

	const start = Math.min(scroll, lines.length - height);
	const shown = lines.slice(start, start + height);
	if (start > 0) {
		shown[0] = <Text key="more-above" dimColor>{`↑ ${start + 1} more lines (K)`}</Text>;
	}

	if (start + height < lines.length) {
		shown[shown.length - 1] = <Text key="more-below" dimColor>{`↓ ${lines.length - start - height + 1} more lines (J)`}</Text>;
	}

	return shown;
}

/** The full record: every field with its label, formulas computed, long text wrapped. */
export function Detail(props: DetailProps) {
	const theme = useTheme();
	const {item} = props;
	if (!item) {
		return (
			<Box flexDirection="column" width={props.width} height={props.height}>
				<Text dimColor>{props.error ? sanitize(props.error) : 'No record selected.'}</Text>
			</Box>
		);
	}

	const labelWidth = Math.min(14, Math.max(...props.fields.map(field => field.label.length)) + 1);
	const valueWidth = Math.max(10, props.width - labelWidth - 2);
	const lines: ReactElement[] = [];
	lines.push(<Text key="head" bold wrap="truncate-end">{`${sanitize(item.id)} · v${item.version} · updated ${sanitize(item.updated_at.slice(0, 19).replace('T', ' '))}`}</Text>);
	const ordered = [...props.fields.filter(field => !field.config.long && field.type !== 'json'), ...props.fields.filter(field => field.config.long || field.type === 'json')];
	for (const field of ordered) {
		const value = item.values[field.key];
		const label = fit(sanitize(field.label), labelWidth);
		const flag = props.flagged.has(field.key) ? '⚑' : ' ';
		if (field.config.long || field.type === 'json') {
			const text = field.type === 'json' ? sanitizeValue(value) : sanitizeValue(value, {multiline: true});
			lines.push(<Text key={field.key} wrap="truncate-end"><Text dimColor>{label}</Text>{flag}</Text>);
			for (const [index, line] of wrapLines(text, Math.max(10, props.width - 2)).entries()) {
				lines.push(<Text key={`${field.key}.${index}`} wrap="truncate-end">{`  ${line}`}</Text>);
			}

			continue;
		}

		const segments = formatValue(field, value);
		lines.push(
			<Text key={field.key} wrap="truncate-end">
				<Text dimColor>{label}</Text>
				<Text color={theme.color('yellow')}>{flag}</Text>
				{segments.length === 0 ? <Text dimColor>—</Text> : segments.map((segment, index) => (
					<Text key={index} color={segment.raw ? undefined : theme.color(segment.color)} dimColor={segment.raw}>{truncate(segment.text, valueWidth)}</Text>
				))}
				{field.type === 'formula' ? <Text dimColor> (computed)</Text> : null}
			</Text>,
		);
	}

	const shown = scrolled(lines, Math.max(1, props.height), props.scroll ?? 0);
	return (
		<Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
			{shown}
		</Box>
	);
}
