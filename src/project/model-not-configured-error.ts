/** No model is chosen, or its provider cannot be reached (no key, no base URL). */
export class ModelNotConfiguredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelNotConfiguredError';
  }
}
