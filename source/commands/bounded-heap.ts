// V8's heap kept near what a streaming command (sift export, sift import) really holds, so its
// peak RSS stays flat with the number of items (docs/architecture.md, "Memory of export and import").

import {setFlagsFromString} from 'node:v8';

/**
 * For the rest of this process: the young generation stays at its starting size, and the old
 * generation's limit grows by 10 % over what survives each full collection instead of V8's default
 * of up to 4×. Such a command allocates a stream of short-lived strings and objects: by default
 * V8 answers with 16 MiB semi-spaces (about 45 MiB resident from some 10k items on) and an old
 * generation that fills with promoted garbage between collections (26 MiB at a million items
 * exported, against 7 MiB at 1,000). Bounded, a million-item export peaks at ~86 MiB instead of
 * ~116 (with its 2 MiB page cache), at no measurable cost in time beyond the young generation's
 * 20–40 % (`node dist/test/bench/export.js 1000 1000000`).
 */
export function boundHeap(): void {
	setFlagsFromString('--semi-space-growth-factor=1');
	setFlagsFromString('--heap-growing-percent=10');
}
