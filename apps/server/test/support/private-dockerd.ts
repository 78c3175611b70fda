/**
 * A private dockerd for fault tests that restart or break an engine (the shared one at /var/run/docker.sock is
 * never touched): own data root, exec root, pidfile and socket, no bridge, no iptables, vfs, in a network namespace
 * of its own (`unshare --net`): a dockerd started with `--bridge=none` deletes any link named docker0 it can see,
 * which on the host took the shared engine's bridge away (every later `open` docker agent failed to start). The
 * test image is copied in from the shared engine (docker save | docker load).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './engine-server';
import { DOCKER_SOCKET, TEST_IMAGE } from './fault-kit';

const DOCKERD = '/usr/sbin/dockerd';
const UNSHARE = '/usr/bin/unshare';
const DOCKER = '/usr/local/bin/docker';

export class PrivateDockerd {
  private proc: ChildProcess | undefined;
  readonly socket: string;
  private readonly execRoot: string;

  /** `runDir`: a short directory (unix socket paths are limited to 108 bytes); `dataDir`: the engine's storage. */
  constructor(
    readonly runDir: string,
    readonly dataDir: string,
  ) {
    this.socket = join(runDir, 'docker.sock');
    this.execRoot = join(runDir, 'exec');
  }

  get host(): string {
    return `unix://${this.socket}`;
  }

  /** Starts the engine and waits until it answers. */
  async start(): Promise<void> {
    mkdirSync(this.runDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const log = openSync(join(this.dataDir, 'dockerd.log'), 'a');
    this.proc = spawn(
      UNSHARE,
      [
        '--net',
        '--',
        DOCKERD,
        '--data-root',
        join(this.dataDir, 'root'),
        '--exec-root',
        this.execRoot,
        '--pidfile',
        join(this.runDir, 'docker.pid'),
        '-H',
        this.host,
        '--bridge=none',
        '--iptables=false',
        '--ip-masq=false',
        '--storage-driver=vfs',
      ],
      { shell: false, stdio: ['ignore', log, log] },
    );
    await waitFor(async () => this.docker(['info', '--format', '{{.ServerVersion}}']).status === 0, 'private dockerd answers', {
      timeoutMs: 60_000,
    });
  }

  /** SIGTERM, then waits for it to exit (dockerd stops its containers first). */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((done) => {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
      proc.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      proc.kill('SIGTERM');
    });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  docker(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync(DOCKER, ['--host', this.host, ...args], { shell: false, encoding: 'utf8', timeout: 120_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  /** Copies the test image from the shared engine. */
  loadTestImage(): void {
    const saved = join(this.dataDir, 'image.tar');
    const save = spawnSync(DOCKER, ['--host', `unix://${DOCKER_SOCKET}`, 'save', '-o', saved, TEST_IMAGE], {
      shell: false,
      encoding: 'utf8',
    });
    if (save.status !== 0) throw new Error(`docker save: ${save.stderr}`);
    const load = this.docker(['load', '-i', saved]);
    if (load.status !== 0) throw new Error(`docker load: ${load.stderr}`);
    rmSync(saved, { force: true });
  }

  /** Stops the engine and removes everything it stored. */
  async destroy(): Promise<void> {
    await this.stop();
    // the managed containerd exits with dockerd; its state lives under the exec root
    spawnSync('/bin/umount', ['-R', join(this.dataDir, 'root')], { shell: false, stdio: 'ignore' });
    rmSync(this.dataDir, { recursive: true, force: true });
    if (existsSync(this.runDir)) rmSync(this.runDir, { recursive: true, force: true });
  }
}
