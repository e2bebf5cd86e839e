/**
 * The CDK app (cdk.json points here): `npm run synth` works offline, with no AWS credentials and an example sender;
 * `npm run cdk -- deploy --all -c senderEmail=...` deploys into the account and region of the current credentials.
 * Settings: infra/stacks/settings.ts.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { createService } from './stacks/service.ts';
import { settingsFromContext, type ServiceSettings } from './stacks/settings.ts';

const app = new App();
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
let settings: ServiceSettings;
try {
  settings = settingsFromContext(app.node);
} catch (error) {
  // A setting is missing or wrong: say which and how to pass it, without a stack trace.
  console.error(`\n${(error as Error).message}\n`);
  process.exit(1);
}
createService(app, settings, account && region ? { account, region } : undefined);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
