/**
 * The console's sign-in on AWS: the Cognito user pool (invited users only, MFA by context), its hosted domain, the
 * console's public app client (code flow for PKCE, back to the signing host's /app/callback), the customer's own
 * identity providers from context, and the user routes' grants on that pool alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { settingsFromContext } from '#infra/stacks/settings.ts';
import { manifestFunctions, newApp, synthesize, TEST_SETTINGS, type SynthesizedFunction } from '#test/support/templates.ts';

const SECRET = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:okta-client-AbCdEf';
const CONTEXT = {
  senderEmail: 'no-reply@example.com', signInMfa: 'required', signInDomainPrefix: 'acme-sign',
  identityProviders: JSON.stringify([
    { type: 'oidc', name: 'Okta', issuerUrl: 'https://acme.okta.com', clientId: 'okta-client', clientSecretArn: SECRET },
    { type: 'saml', name: 'AzureAD', metadataUrl: 'https://login.microsoftonline.com/acme/federationmetadata.xml' },
  ]),
};

let web: Template;
let defaults: Template;
let functions: SynthesizedFunction[];
beforeAll(() => {
  const settings = settingsFromContext(newApp(CONTEXT).node);
  const synthesized = synthesize({ ...TEST_SETTINGS, signIn: settings.signIn });
  web = synthesized.templates.web;
  functions = manifestFunctions(synthesized);
  defaults = synthesize().templates.web;
}, 240_000);

const poolOf = (template: Template) => Object.values(template.findResources('AWS::Cognito::UserPool'))[0] as { Properties: Record<string, unknown> };

describe('the console user pool', () => {
  it('signs in by email and password, invited users only, with MFA by authenticator app as context says', () => {
    web.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'], AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'ON', EnabledMfas: ['SOFTWARE_TOKEN_MFA'], DeletionProtection: 'ACTIVE',
    });
    expect(poolOf(defaults).Properties.MfaConfiguration).toBe('OPTIONAL');
  });

  it('has a hosted sign-in domain, the context prefix or one of its own', () => {
    web.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-sign' });
    expect(Object.keys(defaults.findResources('AWS::Cognito::UserPoolDomain'))).toHaveLength(1);
  });

  it("has the console's public client: authorization code only, no secret, back to the signing host's /app/callback", () => {
    web.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false, AllowedOAuthFlows: ['code'], AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: Match.arrayWith(['openid', 'email', 'profile']),
      CallbackURLs: [Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith(['/app/callback'])]) })],
      SupportedIdentityProviders: ['COGNITO', { Ref: Match.stringLikeRegexp('IdpOkta') }, { Ref: Match.stringLikeRegexp('IdpAzureAD') }],
    });
    const client = Object.values(web.findResources('AWS::Cognito::UserPoolClient'))[0] as { Properties: { AllowedOAuthFlows: string[] } };
    expect(client.Properties.AllowedOAuthFlows).not.toContain('implicit');
  });

  it("federates the customer's OIDC and SAML providers from context, the OIDC secret read at deploy", () => {
    web.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'Okta', ProviderType: 'OIDC',
      ProviderDetails: Match.objectLike({ client_id: 'okta-client', oidc_issuer: 'https://acme.okta.com', client_secret: Match.stringLikeRegexp(`^\\{\\{resolve:secretsmanager:${SECRET}`) }),
    });
    web.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', { ProviderName: 'AzureAD', ProviderType: 'SAML' });
    expect(Object.keys(defaults.findResources('AWS::Cognito::UserPoolIdentityProvider'))).toHaveLength(0);
  });

  it('refuses context it cannot deploy', () => {
    expect(() => settingsFromContext(newApp({ ...CONTEXT, signInMfa: 'sometimes' }).node)).toThrow(/signInMfa/);
    expect(() => settingsFromContext(newApp({ ...CONTEXT, identityProviders: '[{"type":"oidc","name":"X","issuerUrl":"http://x","clientId":"c","clientSecretArn":"a"}]' }).node)).toThrow(/https/);
  });
});

describe('federated users', () => {
  const triggers = (template: Template) => Object.entries(template.findResources('AWS::Lambda::Function'))
    .filter(([, r]) => (r as { Properties: { Description?: string } }).Properties.Description?.startsWith("Links a user of the customer's identity provider"));

  it('are linked by a pre-sign-up trigger that knows the providers, only where there are providers', () => {
    const [trigger] = triggers(web);
    expect(trigger).toBeDefined();
    const [logicalId, resource] = trigger ?? ['', {}];
    expect((resource as { Properties: { Environment: { Variables: Record<string, string> } } }).Properties.Environment.Variables.IDENTITY_PROVIDERS).toBe('["Okta","AzureAD"]');
    web.hasResourceProperties('AWS::Cognito::UserPool', { LambdaConfig: { PreSignUp: { 'Fn::GetAtt': [logicalId, 'Arn'] } } });
    web.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [logicalId, 'Arn'] } });
    expect(triggers(defaults)).toHaveLength(0);
    expect(poolOf(defaults).Properties.LambdaConfig).toBeUndefined();
  });

  it('the trigger may look users up and link them in this pool, and do nothing else there', () => {
    const [[, resource] = ['', {}]] = triggers(web);
    const role = (resource as { Properties: { Role: { 'Fn::GetAtt': [string, string] } } }).Properties.Role['Fn::GetAtt'][0];
    const policies = Object.values(web.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify((p as { Properties: { Roles: unknown } }).Properties.Roles).includes(role));
    const cognito = policies.flatMap((p) => (p as { Properties: { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } } }).Properties.PolicyDocument.Statement)
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('cognito-idp:')));
    const pool = Object.keys(web.findResources('AWS::Cognito::UserPool'))[0];
    expect(cognito).toEqual([{ Effect: 'Allow', Action: ['cognito-idp:AdminLinkProviderForUser', 'cognito-idp:ListUsers'], Resource: { 'Fn::GetAtt': [pool, 'Arn'] } }]);
  });
});

describe('the routes', () => {
  it('are told the issuer and the console client, and only the user routes may administer the pool', () => {
    const me = functions.find((f) => f.handler === 'functions/api/get-me.ts');
    expect(Object.keys(me?.env ?? {})).toEqual(expect.arrayContaining(['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_JWKS_URL', 'OIDC_LOGOUT_URL']));
    const administering = functions.filter((f) => f.statements.some((s) => [s.Action].flat().some((a) => a.startsWith('cognito-idp:'))));
    expect(administering.map((f) => f.handler).sort()).toEqual(['functions/api/invite-user.ts', 'functions/api/remove-user.ts']);
    const grant = administering[0]?.statements.find((s) => [s.Action].flat().includes('cognito-idp:AdminCreateUser'));
    expect(JSON.stringify(grant?.Resource)).toContain(':userpool/');
    expect(administering.find((f) => f.handler === 'functions/api/invite-user.ts')?.env.USER_POOL_ID).toBeDefined();
  });
});
