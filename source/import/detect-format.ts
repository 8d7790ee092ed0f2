// Telling a file's format from its first bytes, for `sift import FILE` without --format.

import {closeSync, openSync, readSync} from 'node:fs';
import {withoutByteOrderMark} from './clean-text.js';
import type {ImportFormat} from './records.js';
import {isJsonlHead} from './typed-header.js';

const HEAD_BYTES = 64 * 1024;

/** The format a file's head looks like: sift JSON, GitHub issues, JSON Lines or (anything else) CSV. */
export function detectFormat(path: string): ImportFormat {
	const fd = openSync(path, 'r');
	const buffer = Buffer.alloc(HEAD_BYTES);
	let length: number;
	try {
		length = readSync(fd, buffer, 0, HEAD_BYTES, 0);
	} finally {
		closeSync(fd);
	}

	return formatOfHead(buffer.subarray(0, length).toString('utf8'));
}

/** The decision on a file's head as text (exported for tests). */
export function formatOfHead(head: string): ImportFormat {
	const text = withoutByteOrderMark(head).trimStart();
	if (text.startsWith('[')) {
		// A JSON array of objects: GitHub issues (the only array format sift reads).
		return 'github';
	}

	if (!text.startsWith('{')) {
		return 'csv';
	}

	const firstLine = text.split('\n', 1)[0]!;
	let first: unknown;
	try {
		first = JSON.parse(firstLine);
	} catch {
		// An object over several lines: a sift file (its "channel" comes first or after "items").
		if (/^\{\s*"sift"\s*:\s*"jsonl"/.test(text)) return 'jsonl';
		return /^\{\s*"(channel|items)"/.test(text) ? 'sift' : looksLikeIssueText(text) ? 'github' : 'sift';
	}

	// sift's own JSON Lines: its head line, or (an export without one) a row with sift's item columns.
	if (isJsonlHead(first) || isSiftRow(first)) {
		return 'jsonl';
	}

	if (typeof first === 'object' && first !== null && ('channel' in first || 'items' in first)) {
		return 'sift';
	}

	return isIssue(first) ? 'github' : 'jsonl';
}

/** A row of sift's JSON Lines export: a string id, a whole version, created_at and updated_at (a GitHub issue's id is a number, and it has no version). */
function isSiftRow(value: unknown): boolean {
	if (typeof value !== 'object' || value === null) return false;
	const row = value as Record<string, unknown>;
	return typeof row.id === 'string' && Number.isSafeInteger(row.version) && typeof row.created_at === 'string' && typeof row.updated_at === 'string';
}

/** A GitHub issue as the REST API or `gh issue list --json` gives it: a number and a title, and a GitHub URL. */
export function isIssue(value: unknown): boolean {
	if (typeof value !== 'object' || value === null) return false;
	const record = value as Record<string, unknown>;
	const url = record.html_url ?? record.url;
	return typeof record.number === 'number' && typeof record.title === 'string' && typeof url === 'string' && /^https:\/\/(api\.)?github\.com\//.test(url);
}

const looksLikeIssueText = (text: string) => /"number"\s*:/.test(text) && /"title"\s*:/.test(text) && /github\.com\//.test(text);
