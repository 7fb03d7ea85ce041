import type { ChildHandle } from '../subprocess.js';

/**
 * The Terraform phases a worker process is running, so that its shutdown can stop them when its
 * budget (SHUTDOWN_BUDGET_MS) runs out: each is interrupted, killed a moment later, and then
 * handed on rather than recorded (see runPhase). Made in the worker's entry point, one per process.
 */
export class RunningPhases {
  private readonly running = new Set<ChildHandle>();
  /** Set once the shutdown's budget has run out: phases that end now were stopped by it. */
  stopping = false;

  add(proc: ChildHandle): void {
    this.running.add(proc);
  }

  delete(proc: ChildHandle): void {
    this.running.delete(proc);
  }

  get size(): number {
    return this.running.size;
  }

  /** Interrupts every running phase (Terraform stops as on Ctrl-C) and kills what is left after `graceMs`. */
  stopAll(graceMs: number): void {
    this.stopping = true;
    for (const proc of this.running) {
      proc.interrupt();
      setTimeout(() => proc.kill(), graceMs).unref();
    }
  }
}
