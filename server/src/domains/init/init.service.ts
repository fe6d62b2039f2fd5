/**
 * DESIGN — init domain: first run and start-up (`/api/v3/Init/*`): version, status, the default admin while no account
 * exists, connectivity, and the start sequence (migrations, queue, watchers, network checks) run in order with its
 * progress in the server state (server-state.ts). Routes: init.routes.ts; no store of its own: the admin is written
 * through the users domain's UsersService, FirstRun through SettingsService. Component versions come from version.ts.
 */
import type { Logger } from 'pino';
import type { Credentials } from '@shoko-ts/contract';
import { badRequest } from '../../http/problem.js';
import type { UsersService } from '../users/index.js';
import type { ServerStateService } from './server-state.js';

/** The part of the settings service the start sequence needs. */
export interface FirstRunSettings {
  readonly current: { FirstRun: boolean };
  update(mutate: (s: { FirstRun: boolean }) => void): Promise<void>;
}

/** Work that runs while the server starts, in order, each with the message the console shows meanwhile. */
export interface StartupStep {
  message: string;
  run(): Promise<void>;
}

export class InitService {
  /** The credentials of the first account: held in memory only until the server starts, as in Shoko. */
  private defaultUser: Credentials = { Username: 'Default', Password: '' };
  private hasUsers = false;
  private startPromise: Promise<void> | null = null;
  private readonly startedListeners: Array<() => void> = [];

  constructor(
    private readonly state: ServerStateService,
    private readonly users: Pick<UsersService, 'hasAccounts' | 'createFirstAdmin'>,
    private readonly settings: FirstRunSettings,
    private readonly steps: StartupStep[],
    private readonly logger: Logger,
    /** Work for once the server has started: it runs in the background and does not hold the start. */
    private readonly afterStart: () => void = () => undefined,
  ) {}

  /** More work for each time the server has started, alongside `afterStart` (the HTTP layer's warm-up). */
  whenStarted(listener: () => void): void {
    this.startedListeners.push(listener);
  }

  /**
   * A fresh install has no accounts yet. Only then do requests get the first-run principal; Shoko trusts every
   * caller whenever the server isn't started, which would hand a configured server to anyone during a restart.
   */
  async isFreshInstall(): Promise<boolean> {
    if (this.hasUsers) return false;
    this.hasUsers = await this.users.hasAccounts();
    return !this.hasUsers;
  }

  getDefaultUser(): Credentials {
    return { ...this.defaultUser };
  }

  setDefaultUser(credentials: Credentials): void {
    this.defaultUser = { Username: credentials.Username.trim(), Password: credentials.Password };
  }

  /** Starts the server in the background; the console polls the status. */
  startServer(): void {
    if (this.state.current === 'Started') throw badRequest('Already Running');
    if (this.state.current === 'Starting') throw badRequest('Already Starting');
    this.startPromise = this.runStartup();
  }

  /** Resolves when the current start attempt has finished (successfully or not). */
  async waitForStartup(): Promise<void> {
    await this.startPromise;
  }

  private async runStartup(): Promise<void> {
    const log = this.logger;
    try {
      this.state.setStarting('Initializing...');
      log.info('Starting server');
      for (const step of this.steps) {
        this.state.setStarting(step.message);
        await step.run();
      }
      this.state.setStarting('Setting up user accounts...');
      await this.createFirstAccount();
      if (this.settings.current.FirstRun) {
        await this.settings.update((s) => {
          s.FirstRun = false;
        });
      }
      this.state.setStarted();
      log.info('Server started');
      this.afterStart();
      for (const listener of this.startedListeners) listener();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.state.setFailed(`Startup Failed: ${reason}`);
      log.error({ err: error }, 'Server startup failed');
    }
  }

  /**
   * The first start of a fresh install creates the admin account from the first-run credentials. Shoko also
   * creates a password-less admin "Family Friendly"; we don't, as it would be an open door.
   */
  private async createFirstAccount(): Promise<void> {
    if (await this.users.hasAccounts()) return;
    const username = this.defaultUser.Username || 'Default';
    await this.users.createFirstAdmin(username, this.defaultUser.Password);
    this.hasUsers = true;
    this.defaultUser = { Username: 'Default', Password: '' };
    this.logger.info({ username }, `Created the administrator account "${username}"`);
  }
}
