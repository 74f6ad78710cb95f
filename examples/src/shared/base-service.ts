/**
 * Lifecycle and structured logging shared by long-lived services.
 */
import { ServiceStoppedError } from './errors';

/** Field names whose values must never reach a log line (REQ-PLT-003). */
const REDACTED_FIELDS = new Set(['cardNumber', 'pan', 'cvc', 'cardToken']);

/** A service with an explicit start/stop lifecycle and redacting JSON logs on stderr. */
export abstract class BaseService {
  private running = false;

  protected constructor(readonly name: string) {}

  /** Mark the service as running; subclasses extend this to acquire resources. */
  start(): void {
    this.running = true;
    this.log('service_started');
  }

  /** Mark the service as stopped; in-flight work is allowed to finish. */
  stop(): void {
    this.running = false;
    this.log('service_stopped');
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Throw `ServiceStoppedError` unless the service is running. */
  protected assertRunning(): void {
    if (!this.running) {
      throw new ServiceStoppedError(this.name);
    }
  }

  /** Write one JSON log line to stderr with sensitive fields replaced by "[redacted]". */
  protected log(event: string, fields: Record<string, unknown> = {}): void {
    const safe: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      safe[key] = REDACTED_FIELDS.has(key) ? '[redacted]' : value;
    }
    process.stderr.write(`${JSON.stringify({ service: this.name, event, ...safe })}\n`);
  }
}
