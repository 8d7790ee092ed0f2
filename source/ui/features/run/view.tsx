// The instruction for a Codex run and its targets, edited in the pane.

import {Box, Text} from '#ink';
import {caretParts, type TextState} from '../../text-input.js';
import {wrapLines} from '../../components/detail.js';
import {sanitize} from '../../../text/sanitize.js';
import type {FeatureView} from '../feature.js';
import {nameOf} from '../rows.js';

export type InstructionEditorProps = {
	text: TextState;
	targets: string;
	width: number;
	height: number;
};

/** The instruction for Codex, wrapped over several lines, with its targets. */
export function InstructionEditor(props: InstructionEditorProps) {
	const {before, at, after} = caretParts(props.text);
	const caretLine = wrapLines(before, Math.max(10, props.width - 2));
	return (
		<Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
			<Text bold wrap="truncate-end">Run Codex on {props.targets}</Text>
			<Text dimColor wrap="truncate-end">Enter starts the run · Esc cancels · Ctrl+U clears</Text>
			<Box borderStyle="round" width={props.width} flexDirection="column">
				<Text wrap="wrap">
					{before}
					<Text inverse>{at}</Text>
					{after}
				</Text>
			</Box>
			{caretLine.length > props.height ? <Text dimColor>…</Text> : null}
		</Box>
	);
}

/** The instruction is edited in the pane, over the records it runs on. */
export const INSTRUCTION_VIEW = {
	place: 'pane',
	render(overlay, {state, layout}) {
		const [only] = overlay.itemIds;
		const targets = overlay.itemIds.length === 1 && only ? sanitize(nameOf(state.fields, state.window.rows.find(row => row.id === only)?.preview, only)) : `${overlay.itemIds.length} marked records`;
		return <InstructionEditor text={overlay.text} targets={targets} width={layout.paneWidth} height={layout.paneHeight}/>;
	},
} satisfies FeatureView<'instruction'>;
