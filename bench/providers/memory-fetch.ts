/** The `fetch` signature the three SDKs accept as an option. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` that answers every request at once with the given chunks as an SSE body, so
 * an SDK's own stream parsing can be timed without a socket in the way: the SDK-side
 * counterpart of feeding agentd's parser the same chunks directly.
 */
export function memoryFetch(chunks: readonly Uint8Array[]): FetchLike {
  return async () => {
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
