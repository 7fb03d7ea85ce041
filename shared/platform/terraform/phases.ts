import type { ChildHandle } from '../subprocess.js';

/**
 * The Terraform phases a worker process is running, so that its shutdown can stop them when its
 * budget (SHUTDOWN_BUDGET_MS) runs out: each is interrupted, killed a moment later, and then
 * handed on rather than recorded (see runPhase). Made in the worker's entry point, one per process.
 */
export class RunningPhases {
  private readonly running = new Set<ChildHandle>();
  private readonly stopped = new Set<ChildHandle>();

  add(proc: ChildHandle): void {
    this.running.add(proc);
  }

  delete(proc: ChildHandle): void {
    this.running.delete(proc);
  }

  get size(): number {
    return this.running.size;
  }

  /** Whether the shutdown stopped this phase (it was running when the budget ran out). */
  wasStopped(proc: ChildHandle): boolean {
    return this.stopped.has(proc);
  }

  /** Interrupts every running phase (Terraform stops as on Ctrl-C) and kills what is left after `graceMs`. */
  stopAll(graceMs: number): void {
    for (const proc of this.running) {
      this.stopped.add(proc);
      proc.interrupt();
      setTimeout(() => proc.kill(), graceMs).unref();
    }
  }
}
