/**
 * The CDK app (cdk.json points here): `npm run synth` works offline, with no AWS credentials; `npx cdk deploy --all`
 * deploys into the account and region of the current credentials. Settings: infra/stacks/settings.ts.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { createService } from './stacks/service.ts';
import { settingsFromContext } from './stacks/settings.ts';

const app = new App();
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;
createService(app, settingsFromContext(app.node), account && region ? { account, region } : undefined);
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
