// Review as lines a person reads (docs/review.md): proposals, accept and decline outcomes, a run's
// diff and a revert. Values read as in the list (select labels, dates, stars), and every piece of
// record text is sanitized here. For `sift proposals` and `sift runs diff|revert`; the TUI's review
// queue can draw the same lines.

import type {Channel, Field, StoreErrorBody} from '../../store/index.js';
import type {ProposalFieldCounts, ProposalRow} from '../../store/proposals.js';
import type {AcceptResult, DeclineResult, RevertResult, RevertSorting, RunDiff} from '../../store/review-plan.js';
import {counted, plainValue, thousands} from './format.js';
import {describeRefusal} from './refusal.js';
import {sanitize, sanitizeValue} from './sanitize.js';

/** A field's value as a person reads it; an empty field as `(empty)`. */
export function valueText(channel: Channel | undefined, key: string, value: unknown): string {
	if (value === null || value === undefined) return '(empty)';
	const field: Field | undefined = channel?.fields.find(candidate => candidate.key === key);
	const text = field ? plainValue(field, value) : sanitizeValue(value);
	return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const keyText = (key: string) => sanitize(key);

/** One proposal: its head line, then each field base → proposed, then the reason. */
export function proposalLines(proposal: ProposalRow, channel: Channel | undefined): string[] {
	const head = `#${proposal.id}  ${sanitize(proposal.item_id)} v${proposal.base_version}  ${proposal.status}${proposal.run_id ? `  run ${sanitize(proposal.run_id)}` : ''}`;
	const fields = Object.entries(proposal.changes).map(([key, change]) => `    ${keyText(key)}: ${valueText(channel, key, change.from)} → ${valueText(channel, key, change.to)}`);
	const reason = proposal.reason ? [`    reason: ${sanitize(proposal.reason.replaceAll(/\s+/g, ' '))}`] : [];
	return [head, ...fields, ...reason];
}

export function proposalsText(proposals: ProposalRow[], channel: Channel | undefined): string {
	if (proposals.length === 0) return 'No open proposals. Runs started with --propose leave theirs here (`sift run --propose "INSTRUCTION"`).';
	return [`${counted(proposals.length, 'proposal')}:`, ...proposals.flatMap(proposal => proposalLines(proposal, channel))].join('\n');
}

function refusedLine(subject: string, error: StoreErrorBody): string {
	return `${subject} ${describeRefusal(error)}`;
}

export function acceptText(result: AcceptResult, channel: Channel | undefined): string {
	const lines = [`${counted(result.accepted.length, 'proposal')} accepted, ${counted(result.conflicts.length, 'conflict')}, ${thousands(result.refused.length)} refused${result.skipped.length > 0 ? `, ${thousands(result.skipped.length)} already decided` : ''}`];
	for (const accepted of result.accepted) {
		const changes = Object.entries(accepted.changes).map(([key, change]) => `${keyText(key)} ${valueText(channel, key, change.from)} → ${valueText(channel, key, change.to)}`);
		lines.push(`  #${accepted.proposal_id} ${sanitize(accepted.item_id)} v${accepted.version}: ${changes.length > 0 ? changes.join(', ') : 'already so'}${accepted.overwrote.length > 0 ? ` (overwrote ${accepted.overwrote.map(keyText).join(', ')})` : ''}${accepted.still_open ? ' (the rest stays open)' : ''}`);
	}

	for (const conflict of result.conflicts) {
		lines.push(`  conflict #${conflict.proposal_id} ${sanitize(conflict.item_id)} (proposed on v${conflict.base_version}, now v${conflict.current_version}):`);
		for (const field of conflict.fields) {
			lines.push(`    ${keyText(field.key)}: was ${valueText(channel, field.key, field.base)}, proposed ${valueText(channel, field.key, field.proposed)}, now ${valueText(channel, field.key, field.current)}`);
		}
	}

	for (const refused of result.refused) lines.push(`  ${refusedLine(`#${refused.proposal_id} ${sanitize(refused.item_id)}`, refused.error)}`);
	for (const skipped of result.skipped) lines.push(`  #${skipped.proposal_id} is already ${skipped.status}`);
	if (result.conflicts.length > 0) lines.push('Nothing was overwritten. Accept again with --force to write the proposed values over the current ones.');
	return lines.join('\n');
}

export function declineText(result: DeclineResult): string {
	const lines = [`${counted(result.declined.length, 'proposal')} declined${result.skipped.length > 0 ? `, ${thousands(result.skipped.length)} already decided` : ''}`];
	for (const declined of result.declined) lines.push(`  #${declined.proposal_id} ${sanitize(declined.item_id)}`);
	for (const skipped of result.skipped) lines.push(`  #${skipped.proposal_id} is already ${skipped.status}`);
	return lines.join('\n');
}

export function diffText(diff: RunDiff, channel: Channel | undefined): string {
	const fields = diff.items.reduce((total, item) => total + item.fields.length, 0);
	const lines = [`run ${sanitize(diff.run_id)} on ${sanitize(diff.channel_id)}: ${counted(fields, 'field')} changed on ${counted(diff.items.length, 'item')}`];
	for (const item of diff.items) {
		lines.push(`  ${sanitize(item.item_id)}  v${item.version}${item.current_version === null ? ', deleted since' : item.current_version === item.version ? '' : `, now v${item.current_version}`}`);
		for (const field of item.fields) {
			lines.push(`    ${keyText(field.key)}: ${valueText(channel, field.key, field.from)} → ${valueText(channel, field.key, field.to)}, now ${valueText(channel, field.key, field.now)}${field.changed_since ? ' (changed since)' : ''}`);
		}
	}

	return lines.join('\n');
}

function conflictLines(conflicts: RevertSorting['conflicts'], channel: Channel | undefined): string[] {
	return conflicts.map(conflict => `  conflict ${sanitize(conflict.item_id)} ${keyText(conflict.key)}: the run set ${valueText(channel, conflict.key, conflict.to)} (was ${valueText(channel, conflict.key, conflict.from)}), now ${valueText(channel, conflict.key, conflict.now)}: left as it is`);
}

/** What a revert would do, without doing it. */
export function revertPreviewText(runId: string, sorting: RevertSorting, channel: Channel | undefined): string {
	const fields = sorting.back.reduce((total, item) => total + Object.keys(item.values).length, 0);
	const lines = [`revert of run ${sanitize(runId)} would set back ${counted(fields, 'field')} on ${counted(sorting.back.length, 'item')}; ${counted(sorting.conflicts.length, 'conflict')}, ${thousands(sorting.unchanged.length)} already back`];
	for (const item of sorting.back) {
		lines.push(`  ${sanitize(item.item_id)}: ${Object.entries(item.values).map(([key, value]) => `${keyText(key)} ${valueText(channel, key, item.now[key])} → ${valueText(channel, key, value)}`).join(', ')}`);
	}

	lines.push(...conflictLines(sorting.conflicts, channel), 'Nothing was written: add --yes to revert.');
	return lines.join('\n');
}

export function revertText(result: RevertResult, channel: Channel | undefined): string {
	const fields = result.reverted.reduce((total, item) => total + Object.keys(item.changes).length, 0);
	const lines = [`run ${sanitize(result.run_id)} reverted: ${counted(fields, 'field')} set back on ${counted(result.reverted.length, 'item')}; ${counted(result.conflicts.length, 'conflict')}, ${thousands(result.refused.length)} refused, ${thousands(result.unchanged.length)} already back`];
	for (const item of result.reverted) {
		lines.push(`  ${sanitize(item.item_id)} v${item.version}: ${Object.entries(item.changes).map(([key, change]) => `${keyText(key)} ${valueText(channel, key, change.from)} → ${valueText(channel, key, change.to)}`).join(', ')}`);
	}

	lines.push(...conflictLines(result.conflicts, channel));
	for (const refused of result.refused) lines.push(`  ${refusedLine(sanitize(refused.item_id), refused.error)}`);
	return lines.join('\n');
}

/** `sift proposals stats`: one line a field, `severity  12 proposed: 9 accepted (4 auto), 2 declined, 1 open`. */
export function fieldCountsText(counts: readonly ProposalFieldCounts[], whose: string): string {
	if (counts.length === 0) return sanitize(`No proposals of ${whose}.`);
	const width = Math.max(...counts.map(entry => entry.key.length));
	return [sanitize(`Proposals of ${whose}, per field:`), ...counts.map(entry => sanitize(`  ${entry.key.padEnd(width)}  ${entry.proposed} proposed: ${entry.accepted} accepted${entry.auto_accepted > 0 ? ` (${entry.auto_accepted} auto)` : ''}, ${entry.declined} declined, ${entry.open} open`))].join('\n');
}
