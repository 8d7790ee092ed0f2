// Runner benchmark: how much later than the child does sift see a step and the answer?
// The fake codex stamps when it writes its first step and its answer (FAKE_CODEX_TIMELINE);
// the runner's updates are stamped on arrival, on the same clock. Contrast: the same run read
// only through its answer file (`-o FILE`), which exists once the turn is over.

import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {execa} from 'execa';
import {packageRoot} from '../../source/codex/paths.js';
import {startRun} from '../../source/codex/runner.js';
import {median, printTable} from './support.js';

const REPETITIONS = 20;
/** Pause before each line of the fake's script: 13 lines, so the answer comes about 0.25 s in. */
const LINE_DELAY_MS = 20;

const now = () => performance.timeOrigin + performance.now();

/** The fake's own timeline, epoch ms: its start, its first step written, its answer written. */
type Marks = Record<'started' | 'first_step' | 'answer', number>;

type Sample = {firstStepLag: number; answerLag: number; startToFirstStep: number; startToAnswer: number; childStartToAnswer: number};

export async function benchRunner(): Promise<void> {
	const fake = path.join(packageRoot(), 'test', 'support', 'fake-codex.mjs');
	const dir = mkdtempSync(path.join(tmpdir(), 'sift-bench-runner-'));
	try {
		const streamed: Sample[] = [];
		const answerFile: Sample[] = [];
		for (let index = 0; index < REPETITIONS; index++) {
			streamed.push(await streamedRun(fake, dir, index));
			answerFile.push(await answerFileRun(fake, dir, index));
		}
		const row = (name: string, samples: Sample[], firstStep: boolean) => ({
			path: name,
			'first step lag ms': firstStep ? median(samples.map(sample => sample.firstStepLag)) : 'never',
			'answer lag ms': median(samples.map(sample => sample.answerLag)),
			'start to first step ms': firstStep ? median(samples.map(sample => sample.startToFirstStep)) : 'never',
			'start to answer ms': median(samples.map(sample => sample.startToAnswer)),
			'child start to answer ms': median(samples.map(sample => sample.childStartToAnswer)),
		});
		printTable(
			`Codex runner: wrapper lag behind the child's own timeline (fake codex, ${LINE_DELAY_MS} ms per line, median of ${REPETITIONS})`,
			[row('stream (startRun, --json)', streamed, true), row('answer file (-o), stdout unread', answerFile, false)],
			[
				'lag = when sift has it - when the child wrote it; start = startRun() / spawn; child start = the fake\'s first line of JS.',
				'The answer file only exists after turn.completed and exit, and an -o reader sees no steps at all.',
			],
		);
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
}

async function streamedRun(fake: string, dir: string, index: number): Promise<Sample> {
	const timeline = path.join(dir, `stream-${index}.jsonl`);
	const started = now();
	const handle = startRun({
		instruction: 'Triage these bugs',
		channelId: 'bugs',
		itemIds: ['itm_0042', 'itm_0043', 'itm_0044'],
		dbPath: path.join(dir, 'bench.db'),
		codex: fake,
		stateDir: path.join(dir, 'state'),
		env: {...process.env, FAKE_CODEX_MODE: 'normal', FAKE_CODEX_DELAY_MS: String(LINE_DELAY_MS), FAKE_CODEX_TIMELINE: timeline},
	});
	let firstStepAt = 0;
	let answerAt = 0;
	for await (const update of handle.updates) {
		if (update.type === 'step' && !firstStepAt) firstStepAt = now();
		if (update.type === 'text' && !answerAt) answerAt = now();
	}
	const result = await handle.done;
	if (result.outcome !== 'ok') throw new Error(`bench run ended ${result.outcome}: ${result.error}`);
	const marks = readMarks(timeline);
	return {
		firstStepLag: firstStepAt - marks.first_step,
		answerLag: answerAt - marks.answer,
		startToFirstStep: firstStepAt - started,
		startToAnswer: answerAt - started,
		childStartToAnswer: marks.answer - marks.started,
	};
}

async function answerFileRun(fake: string, dir: string, index: number): Promise<Sample> {
	const timeline = path.join(dir, `file-${index}.jsonl`);
	const answer = path.join(dir, `answer-${index}.txt`);
	const started = now();
	await execa(fake, ['exec', '--json', '-o', answer, '--', 'Triage these bugs'], {
		stdin: 'ignore',
		stdout: 'ignore',
		env: {...process.env, FAKE_CODEX_MODE: 'normal', FAKE_CODEX_DELAY_MS: String(LINE_DELAY_MS), FAKE_CODEX_TIMELINE: timeline},
	});
	if (!readFileSync(answer, 'utf8')) throw new Error('the fake wrote no answer file');
	const answerAt = now();
	const marks = readMarks(timeline);
	return {firstStepLag: Number.NaN, answerLag: answerAt - marks.answer, startToFirstStep: Number.NaN, startToAnswer: answerAt - started, childStartToAnswer: marks.answer - marks.started};
}

function readMarks(file: string): Marks {
	const lines = readFileSync(file, 'utf8').trim().split('\n');
	return Object.fromEntries(lines.map(line => Object.values(JSON.parse(line) as {mark: string; at: number}))) as Marks;
}
