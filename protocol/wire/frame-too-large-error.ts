/** A frame exceeded the connection's size limit; the connection is closed after replying. */
export class FrameTooLargeError extends Error {
  constructor(
    readonly limitBytes: number,
    readonly sizeBytes: number,
  ) {
    super(
      `message of ${sizeBytes} bytes exceeds the frame limit of ${limitBytes} bytes; ` +
        'send smaller messages or raise server.maxFrameBytes in config.json',
    );
    this.name = 'FrameTooLargeError';
  }
}
