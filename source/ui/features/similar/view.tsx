// `S`: the Similar pane, one line a candidate: its score, its name (the ticket), its title and the
// terms it shares with the record; the chosen one with its shared terms in full. Every text from
// the records is sanitised.

import {Box, Text} from '#ink';
import type {Field, SimilarHit} from '../../../../store/index.js';
import {sanitize, sanitizeValue} from '../../../text/sanitize.js';
import {useTheme} from '../../theme.js';
import type {FeatureView} from '../feature.js';
import {nameOf} from '../rows.js';
import type {MarkedRow} from '../../model/bulk.js';
import {duplicateFieldOf} from './slice.js';

/** The field a candidate's line names it by after its ticket: the first short text that is not the name. */
const titleField = (fields: readonly Field[]) => fields.find(field => field.type === 'text' && !field.is_unique && !field.config.long);

export type SimilarProps = {
	target: MarkedRow; hits: SimilarHit[] | null; problem: string | null; fields: Field[]; hasDuplicateField: boolean; cursor: number; width: number; height: number;
};

export function SimilarRecords({target, hits, problem, fields, hasDuplicateField, cursor, width, height}: SimilarProps) {
	const theme = useTheme();
	const title = titleField(fields);
	const heading = `Similar to ${sanitize(target.name ?? target.id)}`;
	if (hits === null) return <Box width={width} height={height}><Text dimColor>{`${heading}: reading…`}</Text></Box>;
	if (hits.length === 0) {
		return (
			<Box flexDirection="column" width={width} height={height}>
				<Text bold wrap="truncate-end">{heading}</Text>
				{problem ? <Text color={theme.color('red')} wrap="truncate-end">{sanitize(problem)}</Text> : <Text dimColor>No other record resembles this one.</Text>}
				<Text dimColor>Esc closes.</Text>
			</Box>
		);
	}

	const room = Math.max(1, height - 3);
	const start = Math.min(Math.max(0, cursor - Math.floor(room / 2)), Math.max(0, hits.length - room));
	const chosen = hits[cursor];
	const keys = `${hasDuplicateField ? 'd duplicate · ' : ''}n not a duplicate · Enter opens · Esc closes`;
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold wrap="truncate-end">{`${heading}: ${hits.length} · ${keys}`}</Text>
			{hits.slice(start, start + room).map((hit, index) => {
				const at = start + index;
				const name = sanitize(nameOf(fields, hit.preview, hit.id));
				const titled = title ? sanitizeValue(hit.preview[title.key] ?? '') : '';
				const shared = hit.shared_terms.length > 0 ? ` · ${sanitize(hit.shared_terms.slice(0, 6).join(', '))}` : '';
				return (
					<Text key={hit.id} inverse={at === cursor} wrap="truncate-end">
						{`${at === cursor ? '› ' : '  '}${hit.score.toFixed(2).padStart(7)}  ${name}  ${titled}`}<Text dimColor>{shared}</Text>
					</Text>
				);
			})}
			{chosen ? <Text dimColor wrap="truncate-end">{`shared: ${sanitize(chosen.shared_terms.join(', ')) || '(no searched term)'}`}</Text> : null}
			{hasDuplicateField ? null : <Text dimColor wrap="truncate-end">This channel has no duplicate relation: d is off.</Text>}
		</Box>
	);
}

/** The similar records take the body. */
export const SIMILAR_VIEW = {
	place: 'body',
	render: (overlay, {state, layout}) => <SimilarRecords target={overlay.target} hits={state.similar.hits} problem={state.similar.problem} fields={state.fields} hasDuplicateField={duplicateFieldOf(state) !== undefined} cursor={overlay.cursor} width={layout.columns} height={layout.bodyHeight}/>,
} satisfies FeatureView<'similar'>;
