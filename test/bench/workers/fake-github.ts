// The fake GitHub in a process of its own, so that a bench measures the sift process alone.
//
//   fake-github ISSUES COMMENTS
//     Seeds the fake (OpenAPI checks off) with ISSUES issues and COMMENTS comments on every third,
//     serves it on a random port of 127.0.0.1 and prints {"url","token","issues"} (issues: the
//     first 100 issue numbers, pull requests left out); then one line {"write":{issue,change},
//     "at":T} per write it takes (T: epoch ms, sub-ms precision, comparable across processes).
//     Stops when its stdin ends.

import {startFakeGithub} from '../../support/fake-github.js';

const [count, comments] = process.argv.slice(2).map(Number) as [number, number];
const fake = await startFakeGithub({issues: count, comments, check: false});
const now = () => performance.timeOrigin + performance.now();
fake.onWrite = write => process.stdout.write(`${JSON.stringify({write: {issue: write.issue, change: write.change}, at: now()})}\n`);
const numbers = [...fake.repo().issues.values()].filter(issue => !issue.pull_request).slice(0, 100).map(issue => issue.number as number);
process.stdout.write(`${JSON.stringify({url: fake.url, token: fake.token, issues: numbers})}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
	void fake.stop().then(() => process.exit(0));
});
