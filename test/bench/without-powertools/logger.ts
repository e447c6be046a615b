/** The bench's "before Powertools" baseline: Logger's surface as functions/ uses it, doing nothing. */
export class Logger {
  constructor(_options?: unknown) {}
  setLogLevel(_level: string): void {}
  info(_message: string, _fields?: unknown): void {}
  warn(_message: string, _fields?: unknown): void {}
  error(_message: string, _fields?: unknown): void {}
}
