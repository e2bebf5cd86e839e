/**
 * The console's sign-in on AWS: a Cognito user pool (email and password, no self sign-up: users are invited; MFA by
 * authenticator app, optional or required by context), its hosted sign-in domain, the customer's own identity
 * providers (OIDC or SAML) from context, and the console's public app client: authorization code only (no implicit
 * flow, no secret: the console proves itself with PKCE), back to `<signing host>/app/callback`. With providers, a
 * pre-sign-up trigger links each provider's user to the user invited with the same email.
 */
import { Aws, Duration, RemovalPolicy, SecretValue, Stack } from 'aws-cdk-lib';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  AccountRecovery, Mfa, OAuthScope, ProviderAttribute, UserPool, UserPoolClientIdentityProvider, UserPoolIdentityProviderOidc, UserPoolOperation,
  UserPoolIdentityProviderSaml, UserPoolIdentityProviderSamlMetadata, type UserPoolClient, type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import type { ConsoleSignInSettings } from '../stacks/sign-in-settings.ts';
import { acknowledge } from './nag.ts';
import { ServiceFunction } from './service-function.ts';

const MFA = { off: Mfa.OFF, optional: Mfa.OPTIONAL, required: Mfa.REQUIRED } as const;
const SAML_EMAIL = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';

export class ConsoleSignIn extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly domain: UserPoolDomain;
  /** The issuer of the pool's tokens, whose discovery document the console reads. */
  readonly issuer: string;
  readonly logoutUrl: string;

  constructor(scope: Construct, id: string, props: { prefix: string; signingUrl: string; settings: ConsoleSignInSettings; logRetention: RetentionDays }) {
    super(scope, id);
    const { settings } = props;
    this.userPool = new UserPool(this, 'Users', {
      userPoolName: `${props.prefix}-console`,
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      mfa: MFA[settings.mfa],
      ...(settings.mfa === 'off' ? {} : { mfaSecondFactor: { otp: true, sms: false } }),
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(7) },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    if (settings.mfa !== 'required') acknowledge(this.userPool, 'COG2', 'MFA is the deployment\'s choice (-c signInMfa=required); optional by default, each user may turn it on, and federated users get their own provider\'s MFA');
    for (const rule of ['COG3', 'COG8']) acknowledge(this.userPool, rule, 'Threat protection (the Plus feature plan) is a paid choice of the operator; the pool locks out repeated failures by default and MFA is available');
    this.domain = this.userPool.addDomain('Hosted', { cognitoDomain: { domainPrefix: settings.domainPrefix ?? `${props.prefix.toLowerCase()}-${Aws.ACCOUNT_ID}` } });
    const providers = settings.identityProviders.map((p) => (p.type === 'oidc'
      ? new UserPoolIdentityProviderOidc(this, `Idp${p.name}`, {
        userPool: this.userPool, name: p.name, issuerUrl: p.issuerUrl, clientId: p.clientId,
        // A dynamic reference: CloudFormation reads the secret at deploy, the template never holds it.
        clientSecret: SecretValue.secretsManager(p.clientSecretArn).unsafeUnwrap(),
        scopes: ['openid', 'email', 'profile'],
        attributeMapping: { email: ProviderAttribute.other('email'), fullname: ProviderAttribute.other('name') },
      })
      : new UserPoolIdentityProviderSaml(this, `Idp${p.name}`, {
        userPool: this.userPool, name: p.name, metadata: UserPoolIdentityProviderSamlMetadata.url(p.metadataUrl),
        attributeMapping: { email: ProviderAttribute.other(SAML_EMAIL) },
      })));
    if (providers.length > 0) this.linkFederatedUsers(settings.identityProviders.map((p) => p.name), props.logRetention);
    this.client = this.userPool.addClient('Console', {
      userPoolClientName: 'console',
      generateSecret: false,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
        callbackUrls: [`${props.signingUrl}/app/callback`],
        logoutUrls: [`${props.signingUrl}/app/`],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO, ...providers.map((p) => UserPoolClientIdentityProvider.custom(p.providerName))],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(12),
    });
    for (const provider of providers) this.client.node.addDependency(provider);
    this.issuer = `https://cognito-idp.${Stack.of(this).region}.${Aws.URL_SUFFIX}/${this.userPool.userPoolId}`;
    this.logoutUrl = `${this.domain.baseUrl()}/logout`;
  }

  /** The pre-sign-up trigger (functions/triggers/federated-sign-up.ts), allowed to look users up and link them in this pool only. */
  private linkFederatedUsers(providerNames: string[], logRetention: RetentionDays): void {
    const trigger = new ServiceFunction(this, 'FederatedSignUp', {
      entry: 'functions/triggers/federated-sign-up.ts',
      description: "Links a user of the customer's identity provider to the console user invited with the same email",
      logRetention,
    });
    trigger.addEnvironment('IDENTITY_PROVIDERS', JSON.stringify(providerNames));
    this.userPool.addTrigger(UserPoolOperation.PRE_SIGN_UP, trigger.fn);
    // A policy of its own: the function does not wait for it, so the pool (which names the function) may name it
    new Policy(this, 'FederatedSignUpGrant', {
      roles: [trigger.role],
      statements: [new PolicyStatement({ actions: ['cognito-idp:ListUsers', 'cognito-idp:AdminLinkProviderForUser'], resources: [this.userPool.userPoolArn] })],
    });
  }
}
