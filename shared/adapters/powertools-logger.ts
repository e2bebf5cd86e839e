import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Logger } from '#shared/ports/services.ts';
import { logKeys } from '../logging.ts';

/**
 * The one logger: AWS Lambda Powertools' structured JSON (level, message, timestamp, service, the X-Ray trace id
 * on Lambda), plus the ids of the request being handled (request, application, envelope: shared/logging.ts) and
 * the line's own fields. The level comes from POWERTOOLS_LOG_LEVEL (default INFO); the service name from
 * POWERTOOLS_SERVICE_NAME (default `esign`).
 */
export function powertoolsLogger(options: { serviceName?: string; logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT' } = {}): Logger {
  const logger = new PowertoolsLogger({ serviceName: options.serviceName ?? process.env.POWERTOOLS_SERVICE_NAME ?? 'esign', ...(options.logLevel ? { logLevel: options.logLevel } : {}) });
  return {
    info: (message, fields) => { logger.info(message, { ...logKeys(), ...fields }); },
    warn: (message, fields) => { logger.warn(message, { ...logKeys(), ...fields }); },
    error: (message, fields) => { logger.error(message, { ...logKeys(), ...fields }); },
  };
}
