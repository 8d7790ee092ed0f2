// Reads a request body up to 2 MiB, counting as it arrives; a client that leaves mid-body is
// `aborted`.

import type {IncomingMessage} from 'node:http';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export type BodyResult = {ok: true; text: string} | {ok: false; reason: 'too_large' | 'aborted'};

/**
 * Reads a request body, counting bytes as they arrive: a declared or actual size over `limit`
 * ends the read at once, so no more than `limit` bytes are ever held. The rest is discarded
 * unread (the caller answers 413 and closes the connection).
 */
export async function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
	const declared = Number(request.headers['content-length']);
	if (Number.isFinite(declared) && declared > limit) {
		request.resume();
		return {ok: false, reason: 'too_large'};
	}

	return new Promise(resolve => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) {
				chunks.push(chunk);
				return;
			}

			chunks.length = 0;
			request.off('data', onData);
			request.resume();
			resolve({ok: false, reason: 'too_large'});
		};

		request.on('data', onData);
		request.once('end', () => resolve({ok: true, text: Buffer.concat(chunks).toString('utf8')}));
		request.once('error', () => resolve({ok: false, reason: 'aborted'}));
		request.once('aborted', () => resolve({ok: false, reason: 'aborted'}));
		// A client that leaves mid-body: 'close' without 'end' (settles nothing once 'end' came).
		request.once('close', () => resolve({ok: false, reason: 'aborted'}));
	});
}
