/** The bench's "before Powertools" baseline: Tracer's surface as functions/ uses it, passing clients through. */
export class Tracer {
  constructor(_options?: unknown) {}
  captureAWSv3Client<T>(client: T): T {
    return client;
  }
}
