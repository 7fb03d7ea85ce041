import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CliPolicyEngine, errored, runPolicyCli, stoppedVerdict, tail, type Verdict } from './cli.js';
import { SENTINEL_CONFIG, sentinelModule, tfplanV2Data, tfrunData } from './sentinel-mocks.js';
import type { EvaluationInput, PolicyEngine, PolicyOutcome, PolicyToEvaluate } from './types.js';

const ANSI = /\x1b\[[0-9;]*m/g;
// A rule's trace line ("policy.sentinel:12:1 - Rule \"main\"") or the next policy's heading end the prints.
const END_OF_PRINTS = /^(\S+:\d+:\d+ - Rule "|(Pass|Fail|Error) - )/;

/** The lines a policy printed: the trace's "Print messages:" section, blank lines dropped. */
export function sentinelPrints(output: string): string[] {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  const prints: string[] = [];
  let inside = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === 'Print messages:') {
      inside = true;
    } else if (inside && END_OF_PRINTS.test(line)) {
      inside = false;
    } else if (inside && line) {
      prints.push(line);
    }
  }
  return prints;
}

/**
 * Maps `sentinel apply`'s exit code and output to a verdict: 0 passed, 1 failed, 2 (undefined
 * result), 3 (runtime error) and anything else errored. Print output becomes the messages.
 */
export function parseSentinelApply(exitCode: number | null, output: string): Verdict {
  const messages = sentinelPrints(output);
  switch (exitCode) {
    case 0:
      return { status: 'passed', messages };
    case 1:
      return { status: 'failed', messages };
    case 2:
      return errored(
        'the policy result was undefined (sentinel apply exit code 2); make sure main evaluates to true or false',
        messages,
      );
    case 3:
      return errored(
        `the policy failed with a runtime error: ${tail(output.replace(ANSI, '')) || 'no output'}`,
        messages,
      );
    default:
      return errored(
        `sentinel apply exited with code ${exitCode}: ${tail(output.replace(ANSI, '')) || 'no output'}`,
        messages,
      );
  }
}

/** The files one Sentinel evaluation reads, written into `dir`: the policy, both mocks and the configuration. */
export async function writeSentinelFiles(dir: string, code: string, input: EvaluationInput): Promise<void> {
  await writeFile(join(dir, 'policy.sentinel'), code);
  await writeFile(join(dir, 'mock-tfplan-v2.sentinel'), sentinelModule(tfplanV2Data(input.plan)));
  await writeFile(join(dir, 'mock-tfrun.sentinel'), sentinelModule(tfrunData(input.run)));
  await writeFile(join(dir, 'sentinel.hcl'), SENTINEL_CONFIG);
}

/** Sentinel policies evaluated with the `sentinel` CLI against mocks of `tfplan/v2` and `tfrun`. */
export class SentinelCliEngine extends CliPolicyEngine implements PolicyEngine {
  readonly kind = 'sentinel' as const;
  protected readonly tool = 'sentinel';
  protected readonly runtime = 'Sentinel';
  protected readonly versionPattern = /v?(\d+\.\d+\.\d+\S*)/;
  protected readonly missingAdvice = "install the sentinel binary on the workers' PATH or set SENTINEL_PATH";

  evaluate(policies: PolicyToEvaluate[], input: EvaluationInput, signal?: AbortSignal): Promise<PolicyOutcome[]> {
    return this.evaluateWith(policies, async (policy, dir) => {
      if (policy.code === null) return errored('the policy has no uploaded code');
      await writeSentinelFiles(dir, policy.code, input);
      // -trace: print output is shown for passing policies too.
      const run = await runPolicyCli(
        this.settings,
        ['apply', '-trace', '-config=sentinel.hcl', 'policy.sentinel'],
        dir,
        signal,
      );
      return (
        stoppedVerdict(run, this.settings, 'sentinel') ?? parseSentinelApply(run.code, `${run.stdout}\n${run.stderr}`)
      );
    });
  }
}
