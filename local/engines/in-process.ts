/**
 * AWS services with no faithful local engine, answered in this process by a middleware at the front of the SDK
 * client's stack: the production adapters (shared/adapters/aws) run unchanged and their calls are recorded like any
 * other (aws-calls.ts), while the work is done locally. Secrets Manager hands out the local secrets; SNS keeps each
 * SMS for the outbox; KMS signs with the local key file; SSM hands out its certificate chain; Step Functions starts the local workflow runner;
 * the Cognito user pool's Admin* calls make and delete accounts of the local OpenID provider.
 */
import { NotFoundException, type SignCommandInput } from '@aws-sdk/client-kms';
import { ResourceNotFoundException, type GetSecretValueCommandInput } from '@aws-sdk/client-secrets-manager';
import { StateMachineDoesNotExist, type StartExecutionCommandInput } from '@aws-sdk/client-sfn';
import { InvalidParameterException, type PublishCommandInput } from '@aws-sdk/client-sns';
import { ParameterNotFound, type GetParameterCommandInput } from '@aws-sdk/client-ssm';
import { ResourceNotFoundException as PoolNotFound, UsernameExistsException, UserNotFoundException, type AdminCreateUserCommandInput } from '@aws-sdk/client-cognito-identity-provider';
import type { LocalAccounts } from './oidc-accounts.ts';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import type { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import type { LocalWorkflows } from '#shared/adapters/local/local-workflows.ts';
import type { SmsOutbox } from '#shared/adapters/local/sms-outbox.ts';
import type { AwsService } from '#shared/deps.ts';

/** Answers one command by its name (`GetSecretValueCommand`), or leaves it to the client when undefined. */
type Answer = (command: string, input: never) => Promise<object> | undefined;

const $metadata = { httpStatusCode: 200 };

/** The middleware that answers a service's commands in process. */
export function answering(answer: Answer): InitializeMiddleware<object, MetadataBearer> {
  return (next, context) => async (args) => {
    const output = answer(context.commandName ?? '', args.input as never);
    if (!output) return next(args);
    return { output: { ...(await output), $metadata }, response: {} };
  };
}

export interface InProcessServices {
  secretsManager: { values: ReadonlyMap<string, string> };
  sns: { outbox: SmsOutbox };
  kms: { keyArn: string; signer: KeyFileSigner };
  /** The seal certificate chain parameter: the chain file `seal-cert import` writes, read at each call. */
  ssm: { parameter: string; chainPem: () => Promise<string> };
  sfn: { workflows: LocalWorkflows; names: ReadonlyMap<string, string> };
  cognito: { userPoolId: string; accounts: LocalAccounts };
}

/** The answer of each in-process service; services with a local engine of their own have none. */
export function inProcessAnswers(services: InProcessServices): Partial<Record<AwsService, Answer>> {
  return {
    secretsManager: (command, input: GetSecretValueCommandInput) => {
      if (command !== 'GetSecretValueCommand') return undefined;
      const value = services.secretsManager.values.get(input.SecretId ?? '');
      if (value === undefined) return Promise.reject(new ResourceNotFoundException({ message: 'Secrets Manager can\'t find the specified secret.', $metadata }));
      return Promise.resolve({ ARN: input.SecretId, SecretString: value });
    },
    sns: (command, input: PublishCommandInput) => {
      if (command !== 'PublishCommand') return undefined;
      if (!input.PhoneNumber || input.TopicArn) return Promise.reject(new InvalidParameterException({ message: 'Only SMS to a phone number is served locally', $metadata }));
      const to = input.PhoneNumber;
      return services.sns.outbox.send({ to, text: input.Message ?? '' }).then(() => ({ MessageId: services.sns.outbox.messages.at(-1)?.id }));
    },
    kms: (command, input: SignCommandInput) => {
      // The seal step reads the key's public half to check its certificate against it.
      if (command === 'GetPublicKeyCommand' && input.KeyId === services.kms.keyArn) {
        return Promise.resolve({ KeyId: input.KeyId, KeySpec: services.kms.signer.keySpec, KeyUsage: 'SIGN_VERIFY', PublicKey: services.kms.signer.publicKey() });
      }
      if (command !== 'SignCommand') return undefined;
      if (input.KeyId !== services.kms.keyArn || input.MessageType !== 'DIGEST' || !input.Message) {
        return Promise.reject(new NotFoundException({ message: `Local KMS signs digests with ${services.kms.keyArn} only`, $metadata }));
      }
      return services.kms.signer.signDigest(input.Message).then((signature) => ({ KeyId: input.KeyId, Signature: signature, SigningAlgorithm: input.SigningAlgorithm }));
    },
    ssm: (command, input: GetParameterCommandInput) => {
      if (command !== 'GetParameterCommand') return undefined;
      if (input.Name !== services.ssm.parameter) return Promise.reject(new ParameterNotFound({ message: `No local parameter ${String(input.Name)}`, $metadata }));
      return services.ssm.chainPem().then((value) => ({ Parameter: { Name: input.Name, Type: 'String', Value: value } }));
    },
    sfn: (command, input: StartExecutionCommandInput) => {
      if (command !== 'StartExecutionCommand') return undefined;
      const machine = services.sfn.names.get(input.stateMachineArn ?? '');
      if (!machine || !input.name) return Promise.reject(new StateMachineDoesNotExist({ message: `No local state machine ${String(input.stateMachineArn)}`, $metadata }));
      const started = new Date();
      return services.sfn.workflows.start(machine, input.name, JSON.parse(input.input ?? '{}') as object)
        .then(() => ({ executionArn: `${String(input.stateMachineArn).replace(':stateMachine:', ':execution:')}:${input.name ?? ''}`, startDate: started }));
    },
    cognito: (command, input: AdminCreateUserCommandInput) => {
      if (command !== 'AdminCreateUserCommand' && command !== 'AdminDeleteUserCommand') return undefined;
      const { accounts, userPoolId } = services.cognito;
      if (input.UserPoolId !== userPoolId) return Promise.reject(new PoolNotFound({ message: `No local user pool ${String(input.UserPoolId)}`, $metadata }));
      const email = input.Username ?? '';
      if (command === 'AdminDeleteUserCommand') {
        return accounts.delete(email).then((removed) => (removed ? {} : Promise.reject(new UserNotFoundException({ message: 'User does not exist.', $metadata }))));
      }
      const name = input.UserAttributes?.find((a) => a.Name === 'name')?.Value ?? null;
      return accounts.create(email, name, input.TemporaryPassword ?? '', true).then((account) => {
        if (!account) throw new UsernameExistsException({ message: 'An account with the given email already exists.', $metadata });
        return { User: { Username: account.id, Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD', Attributes: [{ Name: 'sub', Value: account.id }, { Name: 'email', Value: account.email }] } };
      });
    },
  };
}
