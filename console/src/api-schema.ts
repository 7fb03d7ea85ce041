// Generated from GET /api/v2/openapi.json by the API reference test: do not edit.
export interface paths {
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read healthz */
    get: operations['get_healthz'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read readyz */
    get: operations['get_readyz'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read metrics */
    get: operations['get_metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/.well-known/terraform.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read terraform.json */
    get: operations['get_well_known_terraform_json'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read */
    get: operations['get_'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/favicon.ico': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read favicon.ico */
    get: operations['get_favicon_ico'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read session */
    get: operations['get_api_console_session'];
    put?: never;
    /** Create or add session */
    post: operations['post_api_console_session'];
    /** Delete or remove session */
    delete: operations['delete_api_console_session'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add password */
    post: operations['post_api_console_password'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/password-reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add password-reset */
    post: operations['post_api_console_password_reset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/oauth/authorize': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add authorize */
    post: operations['post_api_console_oauth_authorize'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/sso': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read sso */
    get: operations['get_api_console_sso'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/sso/{provider}/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read start */
    get: operations['get_api_console_sso_provider_start'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/console/sso/{provider}/callback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read callback */
    get: operations['get_api_console_sso_provider_callback'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/oauth/token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add token */
    post: operations['post_oauth_token'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/vcs/{hookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add vcs */
    post: operations['post_webhooks_vcs_hookId'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/ping': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read ping */
    get: operations['get_api_v2_ping'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read openapi.json */
    get: operations['get_api_v2_openapi_json'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/task-results/{id}/callback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Update callback */
    patch: operations['patch_api_v2_task_results_id_callback'];
    trace?: never;
  };
  '/api/v2/policies/{id}/upload': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /** Upload upload */
    put: operations['put_api_v2_policies_id_upload'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read organizations */
    get: operations['get_api_v2_organizations'];
    put?: never;
    /** Create or add organizations */
    post: operations['post_api_v2_organizations'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of organizations */
    get: operations['get_api_v2_organizations_org'];
    put?: never;
    post?: never;
    /** Delete one of organizations */
    delete: operations['delete_api_v2_organizations_org'];
    options?: never;
    head?: never;
    /** Update organizations */
    patch: operations['patch_api_v2_organizations_org'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/entitlement-set': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read entitlement-set */
    get: operations['get_api_v2_organizations_org_entitlement_set'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/authentication-token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read authentication-token */
    get: operations['get_api_v2_organizations_org_authentication_token'];
    put?: never;
    /** Create or add authentication-token */
    post: operations['post_api_v2_organizations_org_authentication_token'];
    /** Delete or remove authentication-token */
    delete: operations['delete_api_v2_organizations_org_authentication_token'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/team-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read team-tokens */
    get: operations['get_api_v2_organizations_org_team_tokens'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/account/details': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read details */
    get: operations['get_api_v2_account_details'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/account/update': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Update update */
    patch: operations['patch_api_v2_account_update'];
    trace?: never;
  };
  '/api/v2/users/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of users */
    get: operations['get_api_v2_users_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read users */
    get: operations['get_api_v2_admin_users'];
    put?: never;
    /** Create or add users */
    post: operations['post_api_v2_admin_users'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/users/{id}/actions/reset-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** reset password (action) */
    post: operations['post_api_v2_admin_users_id_actions_reset_password'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/users/{id}/actions/suspend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** suspend (action) */
    post: operations['post_api_v2_admin_users_id_actions_suspend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/users/{id}/actions/unsuspend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** unsuspend (action) */
    post: operations['post_api_v2_admin_users_id_actions_unsuspend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/organizations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read organizations */
    get: operations['get_api_v2_admin_organizations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/users/{id}/authentication-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read authentication-tokens */
    get: operations['get_api_v2_users_id_authentication_tokens'];
    put?: never;
    /** Create or add authentication-tokens */
    post: operations['post_api_v2_users_id_authentication_tokens'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/authentication-tokens/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of authentication-tokens */
    get: operations['get_api_v2_authentication_tokens_id'];
    put?: never;
    post?: never;
    /** Delete one of authentication-tokens */
    delete: operations['delete_api_v2_authentication_tokens_id'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/organization-memberships': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read organization-memberships */
    get: operations['get_api_v2_organizations_org_organization_memberships'];
    put?: never;
    /** Create or add organization-memberships */
    post: operations['post_api_v2_organizations_org_organization_memberships'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organization-memberships': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read organization-memberships */
    get: operations['get_api_v2_organization_memberships'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organization-memberships/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of organization-memberships */
    get: operations['get_api_v2_organization_memberships_id'];
    put?: never;
    post?: never;
    /** Delete one of organization-memberships */
    delete: operations['delete_api_v2_organization_memberships_id'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organization-memberships/{id}/actions/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** accept (action) */
    post: operations['post_api_v2_organization_memberships_id_actions_accept'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/teams': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read teams */
    get: operations['get_api_v2_organizations_org_teams'];
    put?: never;
    /** Create or add teams */
    post: operations['post_api_v2_organizations_org_teams'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/teams/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of teams */
    get: operations['get_api_v2_teams_id'];
    put?: never;
    post?: never;
    /** Delete one of teams */
    delete: operations['delete_api_v2_teams_id'];
    options?: never;
    head?: never;
    /** Update teams */
    patch: operations['patch_api_v2_teams_id'];
    trace?: never;
  };
  '/api/v2/teams/{id}/authentication-token': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read authentication-token */
    get: operations['get_api_v2_teams_id_authentication_token'];
    put?: never;
    /** Create or add authentication-token */
    post: operations['post_api_v2_teams_id_authentication_token'];
    /** Delete or remove authentication-token */
    delete: operations['delete_api_v2_teams_id_authentication_token'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/teams/{id}/authentication-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read authentication-tokens */
    get: operations['get_api_v2_teams_id_authentication_tokens'];
    put?: never;
    /** Create or add authentication-tokens */
    post: operations['post_api_v2_teams_id_authentication_tokens'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/teams/{id}/relationships/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add users */
    post: operations['post_api_v2_teams_id_relationships_users'];
    /** Delete or remove users */
    delete: operations['delete_api_v2_teams_id_relationships_users'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/teams/{id}/relationships/organization-memberships': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add organization-memberships */
    post: operations['post_api_v2_teams_id_relationships_organization_memberships'];
    /** Delete or remove organization-memberships */
    delete: operations['delete_api_v2_teams_id_relationships_organization_memberships'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/team-workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read team-workspaces */
    get: operations['get_api_v2_team_workspaces'];
    put?: never;
    /** Create or add team-workspaces */
    post: operations['post_api_v2_team_workspaces'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/team-workspaces/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of team-workspaces */
    get: operations['get_api_v2_team_workspaces_id'];
    put?: never;
    post?: never;
    /** Delete one of team-workspaces */
    delete: operations['delete_api_v2_team_workspaces_id'];
    options?: never;
    head?: never;
    /** Update team-workspaces */
    patch: operations['patch_api_v2_team_workspaces_id'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read workspaces */
    get: operations['get_api_v2_organizations_org_workspaces'];
    put?: never;
    /** Create or add workspaces */
    post: operations['post_api_v2_organizations_org_workspaces'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/workspaces/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of workspaces */
    get: operations['get_api_v2_organizations_org_workspaces_name'];
    put?: never;
    post?: never;
    /** Delete one of workspaces */
    delete: operations['delete_api_v2_organizations_org_workspaces_name'];
    options?: never;
    head?: never;
    /** Update workspaces */
    patch: operations['patch_api_v2_organizations_org_workspaces_name'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/workspaces/{name}/actions/safe-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** safe delete (action) */
    post: operations['post_api_v2_organizations_org_workspaces_name_actions_safe_delete'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of workspaces */
    get: operations['get_api_v2_workspaces_id'];
    put?: never;
    post?: never;
    /** Delete one of workspaces */
    delete: operations['delete_api_v2_workspaces_id'];
    options?: never;
    head?: never;
    /** Update workspaces */
    patch: operations['patch_api_v2_workspaces_id'];
    trace?: never;
  };
  '/api/v2/workspaces/{id}/actions/lock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** lock (action) */
    post: operations['post_api_v2_workspaces_id_actions_lock'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/actions/unlock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** unlock (action) */
    post: operations['post_api_v2_workspaces_id_actions_unlock'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/actions/force-unlock': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** force unlock (action) */
    post: operations['post_api_v2_workspaces_id_actions_force_unlock'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/actions/safe-delete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** safe delete (action) */
    post: operations['post_api_v2_workspaces_id_actions_safe_delete'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/relationships/ssh-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Update ssh-key */
    patch: operations['patch_api_v2_workspaces_id_relationships_ssh_key'];
    trace?: never;
  };
  '/api/v2/workspaces/{id}/relationships/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read tags */
    get: operations['get_api_v2_workspaces_id_relationships_tags'];
    put?: never;
    /** Create or add tags */
    post: operations['post_api_v2_workspaces_id_relationships_tags'];
    /** Delete or remove tags */
    delete: operations['delete_api_v2_workspaces_id_relationships_tags'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tags': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read tags */
    get: operations['get_api_v2_organizations_org_tags'];
    put?: never;
    post?: never;
    /** Delete or remove tags */
    delete: operations['delete_api_v2_organizations_org_tags'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/tags/{id}/relationships/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add workspaces */
    post: operations['post_api_v2_tags_id_relationships_workspaces'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/configuration-versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read configuration-versions */
    get: operations['get_api_v2_workspaces_id_configuration_versions'];
    put?: never;
    /** Create or add configuration-versions */
    post: operations['post_api_v2_workspaces_id_configuration_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of configuration-versions */
    get: operations['get_api_v2_configuration_versions_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}/ingress-attributes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read ingress-attributes */
    get: operations['get_api_v2_configuration_versions_id_ingress_attributes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}/actions/archive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** archive (action) */
    post: operations['post_api_v2_configuration_versions_id_actions_archive'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read download */
    get: operations['get_api_v2_configuration_versions_id_download'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/configuration-version/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read download */
    get: operations['get_api_v2_runs_id_configuration_version_download'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}/actions/soft_delete_backing_data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** soft delete backing data (action) */
    post: operations['post_api_v2_configuration_versions_id_actions_soft_delete_backing_data'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}/actions/restore_backing_data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** restore backing data (action) */
    post: operations['post_api_v2_configuration_versions_id_actions_restore_backing_data'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/configuration-versions/{id}/actions/permanently_delete_backing_data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** permanently delete backing data (action) */
    post: operations['post_api_v2_configuration_versions_id_actions_permanently_delete_backing_data'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add runs */
    post: operations['post_api_v2_runs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of runs */
    get: operations['get_api_v2_runs_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/run-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read run-events */
    get: operations['get_api_v2_runs_id_run_events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/run-events/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of run-events */
    get: operations['get_api_v2_run_events_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/actions/apply': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** apply (action) */
    post: operations['post_api_v2_runs_id_actions_apply'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/actions/discard': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** discard (action) */
    post: operations['post_api_v2_runs_id_actions_discard'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/actions/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** cancel (action) */
    post: operations['post_api_v2_runs_id_actions_cancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/actions/force-cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** force cancel (action) */
    post: operations['post_api_v2_runs_id_actions_force_cancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/actions/force-execute': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** force execute (action) */
    post: operations['post_api_v2_runs_id_actions_force_execute'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/runs/{id}/comments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read comments */
    get: operations['get_api_v2_runs_id_comments'];
    put?: never;
    /** Create or add comments */
    post: operations['post_api_v2_runs_id_comments'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/comments/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of comments */
    get: operations['get_api_v2_comments_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read runs */
    get: operations['get_api_v2_workspaces_id_runs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read runs */
    get: operations['get_api_v2_organizations_org_runs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/runs/queue': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read queue */
    get: operations['get_api_v2_organizations_org_runs_queue'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/capacity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read capacity */
    get: operations['get_api_v2_organizations_org_capacity'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/plans/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of plans */
    get: operations['get_api_v2_plans_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/plans/{id}/json-output': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read json-output */
    get: operations['get_api_v2_plans_id_json_output'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/plans/{id}/json-output-redacted': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read json-output-redacted */
    get: operations['get_api_v2_plans_id_json_output_redacted'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/applies/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of applies */
    get: operations['get_api_v2_applies_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/current-state-version': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read current-state-version */
    get: operations['get_api_v2_workspaces_id_current_state_version'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/current-state-version-outputs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read current-state-version-outputs */
    get: operations['get_api_v2_workspaces_id_current_state_version_outputs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/state-versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read state-versions */
    get: operations['get_api_v2_workspaces_id_state_versions'];
    put?: never;
    /** Create or add state-versions */
    post: operations['post_api_v2_workspaces_id_state_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/resources': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read resources */
    get: operations['get_api_v2_workspaces_id_resources'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/actions/rollback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** rollback (action) */
    post: operations['post_api_v2_workspaces_id_actions_rollback'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/state-versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read state-versions */
    get: operations['get_api_v2_state_versions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/state-versions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of state-versions */
    get: operations['get_api_v2_state_versions_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/state-versions/{id}/outputs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read outputs */
    get: operations['get_api_v2_state_versions_id_outputs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/state-versions/{id}/actions/soft_delete_backing_data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** soft delete backing data (action) */
    post: operations['post_api_v2_state_versions_id_actions_soft_delete_backing_data'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/state-versions/{id}/actions/restore_backing_data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** restore backing data (action) */
    post: operations['post_api_v2_state_versions_id_actions_restore_backing_data'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/state-versions/{id}/actions/permanently_delete_backing_data': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** permanently delete backing data (action) */
    post: operations['post_api_v2_state_versions_id_actions_permanently_delete_backing_data'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/relationships/remote-state-consumers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read remote-state-consumers */
    get: operations['get_api_v2_workspaces_id_relationships_remote_state_consumers'];
    put?: never;
    /** Create or add remote-state-consumers */
    post: operations['post_api_v2_workspaces_id_relationships_remote_state_consumers'];
    /** Delete or remove remote-state-consumers */
    delete: operations['delete_api_v2_workspaces_id_relationships_remote_state_consumers'];
    options?: never;
    head?: never;
    /** Update remote-state-consumers */
    patch: operations['patch_api_v2_workspaces_id_relationships_remote_state_consumers'];
    trace?: never;
  };
  '/api/v2/state-version-outputs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of state-version-outputs */
    get: operations['get_api_v2_state_version_outputs_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/current-assessment-result': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read current-assessment-result */
    get: operations['get_api_v2_workspaces_id_current_assessment_result'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/assessment-results/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of assessment-results */
    get: operations['get_api_v2_assessment_results_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read tasks */
    get: operations['get_api_v2_organizations_org_tasks'];
    put?: never;
    /** Create or add tasks */
    post: operations['post_api_v2_organizations_org_tasks'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/tasks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of tasks */
    get: operations['get_api_v2_tasks_id'];
    put?: never;
    post?: never;
    /** Delete one of tasks */
    delete: operations['delete_api_v2_tasks_id'];
    options?: never;
    head?: never;
    /** Update tasks */
    patch: operations['patch_api_v2_tasks_id'];
    trace?: never;
  };
  '/api/v2/workspaces/{id}/tasks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read tasks */
    get: operations['get_api_v2_workspaces_id_tasks'];
    put?: never;
    /** Create or add tasks */
    post: operations['post_api_v2_workspaces_id_tasks'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/tasks/{wstask}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of tasks */
    get: operations['get_api_v2_workspaces_id_tasks_wstask'];
    put?: never;
    post?: never;
    /** Delete one of tasks */
    delete: operations['delete_api_v2_workspaces_id_tasks_wstask'];
    options?: never;
    head?: never;
    /** Update tasks */
    patch: operations['patch_api_v2_workspaces_id_tasks_wstask'];
    trace?: never;
  };
  '/api/v2/runs/{id}/task-stages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read task-stages */
    get: operations['get_api_v2_runs_id_task_stages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/task-stages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of task-stages */
    get: operations['get_api_v2_task_stages_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/task-stages/{id}/actions/override': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** override (action) */
    post: operations['post_api_v2_task_stages_id_actions_override'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/task-stages/{id}/policy-evaluations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read policy-evaluations */
    get: operations['get_api_v2_task_stages_id_policy_evaluations'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-evaluations/{id}/policy-set-outcomes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read policy-set-outcomes */
    get: operations['get_api_v2_policy_evaluations_id_policy_set_outcomes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-set-outcomes/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of policy-set-outcomes */
    get: operations['get_api_v2_policy_set_outcomes_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/task-results/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of task-results */
    get: operations['get_api_v2_task_results_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/notification-configurations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read notification-configurations */
    get: operations['get_api_v2_workspaces_id_notification_configurations'];
    put?: never;
    /** Create or add notification-configurations */
    post: operations['post_api_v2_workspaces_id_notification_configurations'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/notification-configurations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of notification-configurations */
    get: operations['get_api_v2_notification_configurations_id'];
    put?: never;
    post?: never;
    /** Delete one of notification-configurations */
    delete: operations['delete_api_v2_notification_configurations_id'];
    options?: never;
    head?: never;
    /** Update notification-configurations */
    patch: operations['patch_api_v2_notification_configurations_id'];
    trace?: never;
  };
  '/api/v2/notification-configurations/{id}/actions/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** verify (action) */
    post: operations['post_api_v2_notification_configurations_id_actions_verify'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/notification-configurations/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read deliveries */
    get: operations['get_api_v2_notification_configurations_id_deliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/notification-deliveries/{id}/actions/resend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** resend (action) */
    post: operations['post_api_v2_notification_deliveries_id_actions_resend'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read registry-modules */
    get: operations['get_api_v2_organizations_org_registry_modules'];
    put?: never;
    /** Create or add registry-modules */
    post: operations['post_api_v2_organizations_org_registry_modules'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules/vcs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add vcs */
    post: operations['post_api_v2_organizations_org_registry_modules_vcs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/registry-modules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add registry-modules */
    post: operations['post_api_v2_registry_modules'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules/{registry}/{namespace}/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete one of registry-modules */
    delete: operations['delete_api_v2_organizations_org_registry_modules_registry_namespace_name'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules/{registry}/{namespace}/{name}/{provider}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of registry-modules */
    get: operations['get_api_v2_organizations_org_registry_modules_registry_namespace_name_provider'];
    put?: never;
    post?: never;
    /** Delete one of registry-modules */
    delete: operations['delete_api_v2_organizations_org_registry_modules_registry_namespace_name_provider'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules/{registry}/{namespace}/{name}/{provider}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add versions */
    post: operations['post_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules/{registry}/{namespace}/{name}/{provider}/version': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read version */
    get: operations['get_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_version'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/registry-modules/{registry}/{namespace}/{name}/{provider}/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of registry-modules */
    get: operations['get_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_version_'];
    put?: never;
    post?: never;
    /** Delete one of registry-modules */
    delete: operations['delete_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_version'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/registry-modules/{org}/{name}/{provider}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add versions */
    post: operations['post_api_v2_registry_modules_org_name_provider_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/registry-modules/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of registry-modules */
    get: operations['get_api_v2_registry_modules_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/registry-modules/actions/delete/{org}/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** :name (action) */
    post: operations['post_api_v2_registry_modules_actions_delete_org_name'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/registry-modules/actions/delete/{org}/{name}/{provider}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** :provider (action) */
    post: operations['post_api_v2_registry_modules_actions_delete_org_name_provider'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/registry-modules/actions/delete/{org}/{name}/{provider}/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** :version (action) */
    post: operations['post_api_v2_registry_modules_actions_delete_org_name_provider_version'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/versions/{version}/test-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add test-runs */
    post: operations['post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_versions_version_test_runs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/test-runs/configuration-versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add configuration-versions */
    post: operations['post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_configuration_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/test-runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read test-runs */
    get: operations['get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs'];
    put?: never;
    /** Create or add test-runs */
    post: operations['post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/test-runs/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of test-runs */
    get: operations['get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/test-runs/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add cancel */
    post: operations['post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_id_cancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/test-runs/{id}/force-cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add force-cancel */
    post: operations['post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_id_force_cancel'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/vars': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read vars */
    get: operations['get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars'];
    put?: never;
    /** Create or add vars */
    post: operations['post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/tests/registry-modules/{registry}/{namespace}/{name}/{provider}/vars/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of vars */
    get: operations['get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars_id'];
    put?: never;
    post?: never;
    /** Delete one of vars */
    delete: operations['delete_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars_id'];
    options?: never;
    head?: never;
    /** Update vars */
    patch: operations['patch_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars_id'];
    trace?: never;
  };
  '/api/v2/runs/{id}/policy-checks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read policy-checks */
    get: operations['get_api_v2_runs_id_policy_checks'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-checks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of policy-checks */
    get: operations['get_api_v2_policy_checks_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-checks/{id}/output': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read output */
    get: operations['get_api_v2_policy_checks_id_output'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-checks/{id}/actions/override': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** override (action) */
    post: operations['post_api_v2_policy_checks_id_actions_override'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/policies': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read policies */
    get: operations['get_api_v2_organizations_org_policies'];
    put?: never;
    /** Create or add policies */
    post: operations['post_api_v2_organizations_org_policies'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policies/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of policies */
    get: operations['get_api_v2_policies_id'];
    put?: never;
    post?: never;
    /** Delete one of policies */
    delete: operations['delete_api_v2_policies_id'];
    options?: never;
    head?: never;
    /** Update policies */
    patch: operations['patch_api_v2_policies_id'];
    trace?: never;
  };
  '/api/v2/policies/{id}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read download */
    get: operations['get_api_v2_policies_id_download'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/policy-sets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read policy-sets */
    get: operations['get_api_v2_organizations_org_policy_sets'];
    put?: never;
    /** Create or add policy-sets */
    post: operations['post_api_v2_organizations_org_policy_sets'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-sets/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of policy-sets */
    get: operations['get_api_v2_policy_sets_id'];
    put?: never;
    post?: never;
    /** Delete one of policy-sets */
    delete: operations['delete_api_v2_policy_sets_id'];
    options?: never;
    head?: never;
    /** Update policy-sets */
    patch: operations['patch_api_v2_policy_sets_id'];
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/relationships/policies': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add policies */
    post: operations['post_api_v2_policy_sets_id_relationships_policies'];
    /** Delete or remove policies */
    delete: operations['delete_api_v2_policy_sets_id_relationships_policies'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/relationships/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add workspaces */
    post: operations['post_api_v2_policy_sets_id_relationships_workspaces'];
    /** Delete or remove workspaces */
    delete: operations['delete_api_v2_policy_sets_id_relationships_workspaces'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/relationships/workspace-exclusions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add workspace-exclusions */
    post: operations['post_api_v2_policy_sets_id_relationships_workspace_exclusions'];
    /** Delete or remove workspace-exclusions */
    delete: operations['delete_api_v2_policy_sets_id_relationships_workspace_exclusions'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/relationships/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add projects */
    post: operations['post_api_v2_policy_sets_id_relationships_projects'];
    /** Delete or remove projects */
    delete: operations['delete_api_v2_policy_sets_id_relationships_projects'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/parameters': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read parameters */
    get: operations['get_api_v2_policy_sets_id_parameters'];
    put?: never;
    /** Create or add parameters */
    post: operations['post_api_v2_policy_sets_id_parameters'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/parameters/{param_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of parameters */
    get: operations['get_api_v2_policy_sets_id_parameters_param_id'];
    put?: never;
    post?: never;
    /** Delete one of parameters */
    delete: operations['delete_api_v2_policy_sets_id_parameters_param_id'];
    options?: never;
    head?: never;
    /** Update parameters */
    patch: operations['patch_api_v2_policy_sets_id_parameters_param_id'];
    trace?: never;
  };
  '/api/v2/policy-sets/{id}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add versions */
    post: operations['post_api_v2_policy_sets_id_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/policy-set-versions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of policy-set-versions */
    get: operations['get_api_v2_policy_set_versions_id'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/opa-versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read opa-versions */
    get: operations['get_api_v2_admin_opa_versions'];
    put?: never;
    /** Create or add opa-versions */
    post: operations['post_api_v2_admin_opa_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/opa-versions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of opa-versions */
    get: operations['get_api_v2_admin_opa_versions_id'];
    put?: never;
    post?: never;
    /** Delete one of opa-versions */
    delete: operations['delete_api_v2_admin_opa_versions_id'];
    options?: never;
    head?: never;
    /** Update opa-versions */
    patch: operations['patch_api_v2_admin_opa_versions_id'];
    trace?: never;
  };
  '/api/v2/admin/sentinel-versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read sentinel-versions */
    get: operations['get_api_v2_admin_sentinel_versions'];
    put?: never;
    /** Create or add sentinel-versions */
    post: operations['post_api_v2_admin_sentinel_versions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/admin/sentinel-versions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of sentinel-versions */
    get: operations['get_api_v2_admin_sentinel_versions_id'];
    put?: never;
    post?: never;
    /** Delete one of sentinel-versions */
    delete: operations['delete_api_v2_admin_sentinel_versions_id'];
    options?: never;
    head?: never;
    /** Update sentinel-versions */
    patch: operations['patch_api_v2_admin_sentinel_versions_id'];
    trace?: never;
  };
  '/api/v2/workspaces/{id}/vars': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read vars */
    get: operations['get_api_v2_workspaces_id_vars'];
    put?: never;
    /** Create or add vars */
    post: operations['post_api_v2_workspaces_id_vars'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/vars/{var_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of vars */
    get: operations['get_api_v2_workspaces_id_vars_var_id'];
    put?: never;
    post?: never;
    /** Delete one of vars */
    delete: operations['delete_api_v2_workspaces_id_vars_var_id'];
    options?: never;
    head?: never;
    /** Update vars */
    patch: operations['patch_api_v2_workspaces_id_vars_var_id'];
    trace?: never;
  };
  '/api/v2/workspaces/{id}/all-vars': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read all-vars */
    get: operations['get_api_v2_workspaces_id_all_vars'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/vars': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read vars */
    get: operations['get_api_v2_vars'];
    put?: never;
    /** Create or add vars */
    post: operations['post_api_v2_vars'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/vars/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete one of vars */
    delete: operations['delete_api_v2_vars_id'];
    options?: never;
    head?: never;
    /** Update vars */
    patch: operations['patch_api_v2_vars_id'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/varsets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read varsets */
    get: operations['get_api_v2_organizations_org_varsets'];
    put?: never;
    /** Create or add varsets */
    post: operations['post_api_v2_organizations_org_varsets'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/varsets/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of varsets */
    get: operations['get_api_v2_varsets_id'];
    put?: never;
    post?: never;
    /** Delete one of varsets */
    delete: operations['delete_api_v2_varsets_id'];
    options?: never;
    head?: never;
    /** Update varsets */
    patch: operations['patch_api_v2_varsets_id'];
    trace?: never;
  };
  '/api/v2/varsets/{id}/relationships/vars': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read vars */
    get: operations['get_api_v2_varsets_id_relationships_vars'];
    put?: never;
    /** Create or add vars */
    post: operations['post_api_v2_varsets_id_relationships_vars'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/varsets/{id}/relationships/vars/{var_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of vars */
    get: operations['get_api_v2_varsets_id_relationships_vars_var_id'];
    put?: never;
    post?: never;
    /** Delete one of vars */
    delete: operations['delete_api_v2_varsets_id_relationships_vars_var_id'];
    options?: never;
    head?: never;
    /** Update vars */
    patch: operations['patch_api_v2_varsets_id_relationships_vars_var_id'];
    trace?: never;
  };
  '/api/v2/varsets/{id}/relationships/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add workspaces */
    post: operations['post_api_v2_varsets_id_relationships_workspaces'];
    /** Delete or remove workspaces */
    delete: operations['delete_api_v2_varsets_id_relationships_workspaces'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/varsets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read varsets */
    get: operations['get_api_v2_workspaces_id_varsets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/varsets/{id}/relationships/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add projects */
    post: operations['post_api_v2_varsets_id_relationships_projects'];
    /** Delete or remove projects */
    delete: operations['delete_api_v2_varsets_id_relationships_projects'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/projects/{id}/varsets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read varsets */
    get: operations['get_api_v2_projects_id_varsets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/workspaces/{id}/run-triggers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read run-triggers */
    get: operations['get_api_v2_workspaces_id_run_triggers'];
    put?: never;
    /** Create or add run-triggers */
    post: operations['post_api_v2_workspaces_id_run_triggers'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/run-triggers/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of run-triggers */
    get: operations['get_api_v2_run_triggers_id'];
    put?: never;
    post?: never;
    /** Delete one of run-triggers */
    delete: operations['delete_api_v2_run_triggers_id'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read projects */
    get: operations['get_api_v2_organizations_org_projects'];
    put?: never;
    /** Create or add projects */
    post: operations['post_api_v2_organizations_org_projects'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/projects/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of projects */
    get: operations['get_api_v2_projects_id'];
    put?: never;
    post?: never;
    /** Delete one of projects */
    delete: operations['delete_api_v2_projects_id'];
    options?: never;
    head?: never;
    /** Update projects */
    patch: operations['patch_api_v2_projects_id'];
    trace?: never;
  };
  '/api/v2/team-projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read team-projects */
    get: operations['get_api_v2_team_projects'];
    put?: never;
    /** Create or add team-projects */
    post: operations['post_api_v2_team_projects'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/team-projects/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of team-projects */
    get: operations['get_api_v2_team_projects_id'];
    put?: never;
    post?: never;
    /** Delete one of team-projects */
    delete: operations['delete_api_v2_team_projects_id'];
    options?: never;
    head?: never;
    /** Update team-projects */
    patch: operations['patch_api_v2_team_projects_id'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/agent-pools': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read agent-pools */
    get: operations['get_api_v2_organizations_org_agent_pools'];
    put?: never;
    /** Create or add agent-pools */
    post: operations['post_api_v2_organizations_org_agent_pools'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/agent-pools/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of agent-pools */
    get: operations['get_api_v2_agent_pools_id'];
    put?: never;
    post?: never;
    /** Delete one of agent-pools */
    delete: operations['delete_api_v2_agent_pools_id'];
    options?: never;
    head?: never;
    /** Update agent-pools */
    patch: operations['patch_api_v2_agent_pools_id'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/relationships/data-retention-policy': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read data-retention-policy */
    get: operations['get_api_v2_organizations_org_relationships_data_retention_policy'];
    put?: never;
    /** Create or add data-retention-policy */
    post: operations['post_api_v2_organizations_org_relationships_data_retention_policy'];
    /** Delete or remove data-retention-policy */
    delete: operations['delete_api_v2_organizations_org_relationships_data_retention_policy'];
    options?: never;
    head?: never;
    /** Update data-retention-policy */
    patch: operations['patch_api_v2_organizations_org_relationships_data_retention_policy'];
    trace?: never;
  };
  '/api/v2/workspaces/{id}/relationships/data-retention-policy': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read data-retention-policy */
    get: operations['get_api_v2_workspaces_id_relationships_data_retention_policy'];
    put?: never;
    /** Create or add data-retention-policy */
    post: operations['post_api_v2_workspaces_id_relationships_data_retention_policy'];
    /** Delete or remove data-retention-policy */
    delete: operations['delete_api_v2_workspaces_id_relationships_data_retention_policy'];
    options?: never;
    head?: never;
    /** Update data-retention-policy */
    patch: operations['patch_api_v2_workspaces_id_relationships_data_retention_policy'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/ssh-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read ssh-keys */
    get: operations['get_api_v2_organizations_org_ssh_keys'];
    put?: never;
    /** Create or add ssh-keys */
    post: operations['post_api_v2_organizations_org_ssh_keys'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/ssh-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of ssh-keys */
    get: operations['get_api_v2_ssh_keys_id'];
    put?: never;
    post?: never;
    /** Delete one of ssh-keys */
    delete: operations['delete_api_v2_ssh_keys_id'];
    options?: never;
    head?: never;
    /** Update ssh-keys */
    patch: operations['patch_api_v2_ssh_keys_id'];
    trace?: never;
  };
  '/api/v2/organizations/{org}/oauth-clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read oauth-clients */
    get: operations['get_api_v2_organizations_org_oauth_clients'];
    put?: never;
    /** Create or add oauth-clients */
    post: operations['post_api_v2_organizations_org_oauth_clients'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/oauth-clients/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of oauth-clients */
    get: operations['get_api_v2_oauth_clients_id'];
    put?: never;
    post?: never;
    /** Delete one of oauth-clients */
    delete: operations['delete_api_v2_oauth_clients_id'];
    options?: never;
    head?: never;
    /** Update oauth-clients */
    patch: operations['patch_api_v2_oauth_clients_id'];
    trace?: never;
  };
  '/api/v2/oauth-clients/{id}/relationships/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add projects */
    post: operations['post_api_v2_oauth_clients_id_relationships_projects'];
    /** Delete or remove projects */
    delete: operations['delete_api_v2_oauth_clients_id_relationships_projects'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/oauth-clients/{id}/oauth-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read oauth-tokens */
    get: operations['get_api_v2_oauth_clients_id_oauth_tokens'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/oauth-tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read oauth-tokens */
    get: operations['get_api_v2_organizations_org_oauth_tokens'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/oauth-tokens/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of oauth-tokens */
    get: operations['get_api_v2_oauth_tokens_id'];
    put?: never;
    post?: never;
    /** Delete one of oauth-tokens */
    delete: operations['delete_api_v2_oauth_tokens_id'];
    options?: never;
    head?: never;
    /** Update oauth-tokens */
    patch: operations['patch_api_v2_oauth_tokens_id'];
    trace?: never;
  };
  '/api/v2/runs/{id}/commit-statuses': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read commit-statuses */
    get: operations['get_api_v2_runs_id_commit_statuses'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/organizations/{org}/no-code-modules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add no-code-modules */
    post: operations['post_api_v2_organizations_org_no_code_modules'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v2/no-code-modules/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of no-code-modules */
    get: operations['get_api_v2_no_code_modules_id'];
    put?: never;
    post?: never;
    /** Delete one of no-code-modules */
    delete: operations['delete_api_v2_no_code_modules_id'];
    options?: never;
    head?: never;
    /** Update no-code-modules */
    patch: operations['patch_api_v2_no_code_modules_id'];
    trace?: never;
  };
  '/api/v2/no-code-modules/{id}/workspaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create or add workspaces */
    post: operations['post_api_v2_no_code_modules_id_workspaces'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/registry/v1/modules/{namespace}/{name}/{provider}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read versions */
    get: operations['get_api_registry_v1_modules_namespace_name_provider_versions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/registry/v1/modules/{namespace}/{name}/{provider}/{version}/download': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Read download */
    get: operations['get_api_registry_v1_modules_namespace_name_provider_version_download'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/registry/v1/modules/{namespace}/{name}/{provider}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of modules */
    get: operations['get_api_registry_v1_modules_namespace_name_provider'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/registry/v1/modules/{namespace}/{name}/{provider}/{version}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of modules */
    get: operations['get_api_registry_v1_modules_namespace_name_provider_version'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/object/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of object */
    get: operations['get_v1_object_token'];
    /** Upload object */
    put: operations['put_v1_object_token'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/logs/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Show one of logs */
    get: operations['get_v1_logs_token'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    'organization.create': {
      data: {
        /** @enum {unknown} */
        type: 'organizations';
        attributes: {
          name: string;
          /** Format: email */
          email: string;
          /** @enum {unknown} */
          'default-execution-mode'?: 'remote' | 'local' | 'agent';
          'session-timeout'?: null | number;
          'session-remember'?: null | number;
          'allow-force-delete-workspaces'?: boolean;
          'speculative-runs-withhold-secrets'?: boolean;
        };
      };
    };
    'organization.update': {
      data: {
        /** @enum {unknown} */
        type: 'organizations';
        attributes?: {
          name?: string;
          /** Format: email */
          email?: string;
          /** @enum {unknown} */
          'default-execution-mode'?: 'remote' | 'local' | 'agent';
          'session-timeout'?: null | number;
          'session-remember'?: null | number;
          'allow-force-delete-workspaces'?: boolean;
          'speculative-runs-withhold-secrets'?: boolean;
        };
        relationships?: {
          'default-agent-pool'?: {
            data: null | {
              /** @constant */
              type: 'agent-pools';
              id: string;
            };
          };
        };
      };
    };
    'account.update': {
      data: {
        /** @enum {unknown} */
        type: 'users';
        attributes?: {
          username?: string;
          /** Format: email */
          email?: string;
        };
      };
    };
    'user.create': {
      data: {
        /** @enum {unknown} */
        type: 'users';
        attributes: {
          username: string;
          /** Format: email */
          email: string;
          'is-admin'?: boolean;
        };
      };
    };
    'token.create': {
      data: {
        /** @enum {unknown} */
        type?: 'authentication-tokens' | 'authentication-token' | '';
        attributes?: {
          description?: null | string;
          'expired-at'?: null | string;
        };
      };
    };
    'membership.create': {
      data: {
        /** @enum {unknown} */
        type: 'organization-memberships';
        attributes: {
          /** Format: email */
          email: string;
        };
        relationships?: {
          teams?: {
            data: {
              /** @constant */
              type: 'teams';
              id: string;
            }[];
          };
        };
      };
    };
    'team.create': {
      data: {
        /** @enum {unknown} */
        type: 'teams';
        attributes: {
          name: string;
          /** @enum {unknown} */
          visibility?: 'secret' | 'organization';
          'organization-access'?: {
            'manage-policies'?: boolean;
            'manage-policy-overrides'?: boolean;
            'manage-workspaces'?: boolean;
            'manage-vcs-settings'?: boolean;
            'manage-providers'?: boolean;
            'manage-modules'?: boolean;
            'manage-run-tasks'?: boolean;
            'manage-projects'?: boolean;
            'read-workspaces'?: boolean;
            'read-projects'?: boolean;
            'manage-membership'?: boolean;
            'manage-teams'?: boolean;
            'manage-organization-access'?: boolean;
            'access-secret-teams'?: boolean;
            'manage-agent-pools'?: boolean;
            'manage-var-sets'?: boolean;
          };
          'sso-team-id'?: null | string;
          'allow-member-token-management'?: boolean;
        };
      };
    };
    'team.update': {
      data: {
        /** @enum {unknown} */
        type: 'teams';
        attributes?: {
          name?: string;
          /** @enum {unknown} */
          visibility?: 'secret' | 'organization';
          'organization-access'?: {
            'manage-policies'?: boolean;
            'manage-policy-overrides'?: boolean;
            'manage-workspaces'?: boolean;
            'manage-vcs-settings'?: boolean;
            'manage-providers'?: boolean;
            'manage-modules'?: boolean;
            'manage-run-tasks'?: boolean;
            'manage-projects'?: boolean;
            'read-workspaces'?: boolean;
            'read-projects'?: boolean;
            'manage-membership'?: boolean;
            'manage-teams'?: boolean;
            'manage-organization-access'?: boolean;
            'access-secret-teams'?: boolean;
            'manage-agent-pools'?: boolean;
            'manage-var-sets'?: boolean;
          };
          'sso-team-id'?: null | string;
          'allow-member-token-management'?: boolean;
        };
      };
    };
    'team.users': {
      data: {
        /** @constant */
        type: 'users';
        id: string;
      }[];
    };
    'team.memberships': {
      data: {
        /** @constant */
        type: 'organization-memberships';
        id: string;
      }[];
    };
    'team-workspace.create': {
      data: {
        /** @enum {unknown} */
        type: 'team-workspaces';
        attributes: {
          /** @enum {unknown} */
          access: 'read' | 'plan' | 'write' | 'admin' | 'custom';
          /** @enum {unknown} */
          runs?: 'read' | 'plan' | 'apply';
          /** @enum {unknown} */
          variables?: 'none' | 'read' | 'write';
          /** @enum {unknown} */
          'state-versions'?: 'none' | 'read-outputs' | 'read' | 'write';
          /** @enum {unknown} */
          'sentinel-mocks'?: 'none' | 'read';
          'workspace-locking'?: boolean;
          'run-tasks'?: boolean;
        };
        relationships: {
          workspace: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            };
          };
          team: {
            data: {
              /** @constant */
              type: 'teams';
              id: string;
            };
          };
        };
      };
    };
    'team-workspace.update': {
      data: {
        /** @enum {unknown} */
        type: 'team-workspaces';
        attributes?: {
          /** @enum {unknown} */
          access?: 'read' | 'plan' | 'write' | 'admin' | 'custom';
          /** @enum {unknown} */
          runs?: 'read' | 'plan' | 'apply';
          /** @enum {unknown} */
          variables?: 'none' | 'read' | 'write';
          /** @enum {unknown} */
          'state-versions'?: 'none' | 'read-outputs' | 'read' | 'write';
          /** @enum {unknown} */
          'sentinel-mocks'?: 'none' | 'read';
          'workspace-locking'?: boolean;
          'run-tasks'?: boolean;
        };
      };
    };
    'workspace.create': {
      data: {
        /** @enum {unknown} */
        type: 'workspaces';
        attributes: {
          name: string;
          description?: null | string;
          'working-directory'?: null | string;
          'auto-apply'?: boolean;
          'auto-apply-run-trigger'?: boolean;
          /** @enum {unknown} */
          'execution-mode'?: 'remote' | 'local' | 'agent';
          'agent-pool-id'?: null | string;
          operations?: boolean;
          'terraform-version'?: string;
          'vcs-repo'?: null | {
            identifier?: string;
            'oauth-token-id'?: string;
            'github-app-installation-id'?: null | string;
            branch?: null | string;
            'ingress-submodules'?: boolean;
            'tags-regex'?: null | string;
          };
          'assessments-enabled'?: boolean;
          'auto-destroy-at'?: null | string;
          'allow-destroy-plan'?: boolean;
          'queue-all-runs'?: boolean;
          'speculative-enabled'?: boolean;
          'global-remote-state'?: boolean;
          'structured-run-output-enabled'?: boolean;
          'file-triggers-enabled'?: boolean;
          'trigger-prefixes'?: string[];
          'trigger-patterns'?: string[];
          'source-name'?: null | string;
          'source-url'?: null | string;
          'setting-overwrites'?: {
            'execution-mode'?: boolean;
            'agent-pool'?: boolean;
          };
        };
        relationships?: {
          tags?: {
            data?: (
              | {
                  /** @enum {unknown} */
                  type: 'tags';
                  id?: string;
                  attributes?: {
                    name?: string;
                  };
                }
              | unknown
              | {
                  attributes: unknown;
                }
            )[];
          };
          project?: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            };
          };
        };
      };
    };
    'tag.ids': {
      data: {
        /** @constant */
        type: 'tags';
        id: string;
      }[];
    };
    'tag.workspaces': {
      data: {
        /** @constant */
        type: 'workspaces';
        id: string;
      }[];
    };
    'workspace.tags': {
      data: (
        | {
            /** @enum {unknown} */
            type: 'tags';
            id?: string;
            attributes?: {
              name?: string;
            };
          }
        | unknown
        | {
            attributes: unknown;
          }
      )[];
    };
    'workspace.update': {
      data: {
        /** @enum {unknown} */
        type: 'workspaces';
        attributes?: {
          name?: string;
          description?: null | string;
          'working-directory'?: null | string;
          'auto-apply'?: boolean;
          'auto-apply-run-trigger'?: boolean;
          /** @enum {unknown} */
          'execution-mode'?: 'remote' | 'local' | 'agent';
          'agent-pool-id'?: null | string;
          operations?: boolean;
          'terraform-version'?: string;
          'vcs-repo'?: null | {
            identifier?: string;
            'oauth-token-id'?: string;
            'github-app-installation-id'?: null | string;
            branch?: null | string;
            'ingress-submodules'?: boolean;
            'tags-regex'?: null | string;
          };
          'assessments-enabled'?: boolean;
          'auto-destroy-at'?: null | string;
          'allow-destroy-plan'?: boolean;
          'queue-all-runs'?: boolean;
          'speculative-enabled'?: boolean;
          'global-remote-state'?: boolean;
          'structured-run-output-enabled'?: boolean;
          'file-triggers-enabled'?: boolean;
          'trigger-prefixes'?: string[];
          'trigger-patterns'?: string[];
          'source-name'?: null | string;
          'source-url'?: null | string;
          'setting-overwrites'?: {
            'execution-mode'?: boolean;
            'agent-pool'?: boolean;
          };
        };
        relationships?: {
          project?: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            };
          };
        };
      };
    };
    'cv.create': {
      data: {
        /** @enum {unknown} */
        type: 'configuration-versions' | 'configuration-version';
        attributes?: {
          'auto-queue-runs'?: boolean;
          speculative?: boolean;
          provisional?: boolean;
        };
      };
    };
    'run.create': {
      data: {
        /** @enum {unknown} */
        type: 'runs';
        attributes?: {
          message?: string;
          'is-destroy'?: boolean;
          'auto-apply'?: boolean;
          'plan-only'?: boolean;
          refresh?: boolean;
          'refresh-only'?: boolean;
          'save-plan'?: boolean;
          'allow-empty-apply'?: boolean;
          'allow-config-generation'?: boolean;
          'target-addrs'?: string[];
          'replace-addrs'?: string[];
          variables?: {
            key: string;
            value: string;
          }[];
          'terraform-version'?: string;
        };
        relationships: {
          workspace: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            };
          };
          'configuration-version'?: {
            data: null | {
              /** @constant */
              type: 'configuration-versions';
              id: string;
            };
          };
        };
      };
    };
    'comment.create': {
      data: {
        /** @enum {unknown} */
        type: 'comments';
        attributes: {
          body: string;
        };
        relationships?: {
          run?: {
            data: null | {
              /** @constant */
              type: 'runs';
              id: string;
            };
          };
        };
      };
    };
    'run.action': {
      comment?: null | string;
    };
    'task.create': {
      data: {
        /** @enum {unknown} */
        type: 'tasks';
        attributes: {
          name: string;
          url: string;
          description?: null | string;
          /** @constant */
          category: 'task';
          'hmac-key'?: null | string;
          enabled?: boolean;
          'global-configuration'?: null | {
            enabled?: boolean;
            stages?: ('pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply')[];
            /** @enum {unknown} */
            'enforcement-level'?: 'advisory' | 'mandatory';
          };
        };
      };
    };
    'task.update': {
      data: {
        /** @enum {unknown} */
        type: 'tasks';
        attributes?: {
          name?: string;
          url?: string;
          description?: null | string;
          /** @constant */
          category?: 'task';
          'hmac-key'?: null | string;
          enabled?: boolean;
          'global-configuration'?: null | {
            enabled?: boolean;
            stages?: ('pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply')[];
            /** @enum {unknown} */
            'enforcement-level'?: 'advisory' | 'mandatory';
          };
        };
      };
    };
    'workspace-task.create': {
      data: {
        /** @enum {unknown} */
        type: 'workspace-tasks';
        attributes: {
          /** @enum {unknown} */
          'enforcement-level': 'advisory' | 'mandatory';
          /** @enum {unknown} */
          stage?: 'pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply';
          stages?: ('pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply')[];
        };
        relationships: {
          task: {
            data: {
              /** @constant */
              type: 'tasks';
              id: string;
            };
          };
        };
      };
    };
    'workspace-task.update': {
      data: {
        /** @enum {unknown} */
        type: 'workspace-tasks';
        attributes?: {
          /** @enum {unknown} */
          'enforcement-level'?: 'advisory' | 'mandatory';
          /** @enum {unknown} */
          stage?: 'pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply';
          stages?: ('pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply')[];
        };
      };
    };
    'task-result.callback': {
      data: {
        /** @enum {unknown} */
        type: 'task-results';
        attributes: {
          /** @enum {unknown} */
          status: 'passed' | 'failed' | 'running';
          message?: string;
          url?: string;
        };
        relationships?: {
          outcomes?: {
            data: {
              /** @constant */
              type: 'task-result-outcomes';
              attributes: {
                'outcome-id': string;
                description: string;
                body?: string;
                url?: string;
                tags?: {
                  [key: string]: {
                    label: string;
                    /** @enum {unknown} */
                    level?: 'none' | 'info' | 'warning' | 'error';
                  }[];
                };
              };
            }[];
          };
        };
      };
    };
    'notification.create': {
      data: {
        /** @enum {unknown} */
        type: 'notification-configuration' | 'notification-configurations';
        attributes: {
          /** @enum {unknown} */
          'destination-type': 'generic' | 'email' | 'slack' | 'microsoft-teams';
          enabled?: boolean;
          name: string;
          token?: null | string;
          triggers?: (
            | 'run:created'
            | 'run:planning'
            | 'run:needs_attention'
            | 'run:applying'
            | 'run:completed'
            | 'run:errored'
            | 'assessment:drifted'
            | 'assessment:check_failure'
            | 'assessment:failed'
            | 'workspace:auto_destro_reminder'
            | 'workspace:auto_destroy_reminder'
            | 'workspace:auto_destroy_run_results'
          )[];
          url?: null | string;
          'email-addresses'?: string[];
        };
        relationships?: {
          users?: {
            data: {
              /** @constant */
              type: 'users';
              id: string;
            }[];
          };
          subscribable?: Record<string, never>;
        };
      };
    };
    'notification.update': {
      data: {
        /** @enum {unknown} */
        type: 'notification-configuration' | 'notification-configurations';
        attributes?: {
          /** @enum {unknown} */
          'destination-type'?: 'generic' | 'email' | 'slack' | 'microsoft-teams';
          enabled?: boolean;
          name?: string;
          token?: null | string;
          triggers?: (
            | 'run:created'
            | 'run:planning'
            | 'run:needs_attention'
            | 'run:applying'
            | 'run:completed'
            | 'run:errored'
            | 'assessment:drifted'
            | 'assessment:check_failure'
            | 'assessment:failed'
            | 'workspace:auto_destro_reminder'
            | 'workspace:auto_destroy_reminder'
            | 'workspace:auto_destroy_run_results'
          )[];
          url?: null | string;
          'email-addresses'?: string[];
        };
        relationships?: {
          users?: {
            data: {
              /** @constant */
              type: 'users';
              id: string;
            }[];
          };
          subscribable?: Record<string, never>;
        };
      };
    };
    'registry-module.create': {
      data: {
        /** @enum {unknown} */
        type: 'registry-modules';
        attributes: {
          name: string;
          provider: string;
          namespace?: string;
          /** @enum {unknown} */
          'registry-name'?: 'private' | 'public';
          'no-code'?: boolean;
        };
      };
    };
    'registry-module.vcs': {
      data: {
        /** @enum {unknown} */
        type: 'registry-modules';
        attributes: {
          'vcs-repo': {
            identifier: string;
            'oauth-token-id'?: string;
            'display-identifier'?: string;
            'organization-name'?: string;
            'github-app-installation-id'?: null | string;
            branch?: null | string;
            'ingress-submodules'?: boolean;
            tags?: boolean;
          };
        };
      };
    };
    'registry-module-version.create': {
      data: {
        /** @enum {unknown} */
        type: 'registry-module-versions';
        attributes: {
          version: string;
          'commit-sha'?: null | string;
        };
        relationships?: {
          'test-run'?: {
            data: {
              /** @constant */
              type: 'test-runs';
              id: string;
            };
          };
        };
      };
    };
    'registry-module-version.test': {
      data: {
        /** @enum {unknown} */
        type: 'test-runs';
        attributes?: {
          verbose?: boolean;
          filters?: string[];
          variables?: {
            key: string;
            value: string;
          }[];
          parallelism?: number;
        };
      };
    };
    'test-variable.create': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes: {
          key: string;
          value?: string;
          description?: null | string;
          /** @constant */
          category: 'env';
          sensitive?: boolean;
          hcl?: boolean;
        };
      };
    };
    'test-variable.update': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes?: {
          key?: string;
          value?: string;
          description?: null | string;
          /** @constant */
          category?: 'env';
          sensitive?: boolean;
          hcl?: boolean;
        };
      };
    };
    'test-run.create': {
      data: {
        /** @enum {unknown} */
        type: 'test-runs';
        attributes?: {
          verbose?: boolean;
          filters?: string[];
          variables?: {
            key: string;
            value: string;
          }[];
          parallelism?: number;
          'test-directory'?: string;
        };
        relationships: {
          'configuration-version': {
            data: {
              /** @constant */
              type: 'configuration-versions';
              id: string;
            };
          };
          'registry-module'?: {
            data: {
              /** @constant */
              type: 'registry-modules';
              id: string;
            };
          };
        };
      };
    };
    'policy.create': {
      data: {
        /** @enum {unknown} */
        type: 'policies';
        attributes: {
          name: string;
          description?: null | string;
          /** @enum {unknown} */
          kind?: 'sentinel' | 'opa';
          query?: null | string;
          /** @enum {unknown} */
          'enforcement-level'?: 'hard-mandatory' | 'soft-mandatory' | 'advisory' | 'mandatory';
          enforce?: {
            path?: string;
            /** @enum {unknown} */
            mode: 'hard-mandatory' | 'soft-mandatory' | 'advisory' | 'mandatory';
          }[];
        };
        relationships?: {
          'policy-sets'?: {
            data: {
              /** @constant */
              type: 'policy-sets';
              id: string;
            }[];
          };
        };
      };
    };
    'policy.update': {
      data: {
        /** @enum {unknown} */
        type: 'policies';
        attributes?: {
          name?: string;
          description?: null | string;
          /** @enum {unknown} */
          kind?: 'sentinel' | 'opa';
          query?: null | string;
          /** @enum {unknown} */
          'enforcement-level'?: 'hard-mandatory' | 'soft-mandatory' | 'advisory' | 'mandatory';
          enforce?: {
            path?: string;
            /** @enum {unknown} */
            mode: 'hard-mandatory' | 'soft-mandatory' | 'advisory' | 'mandatory';
          }[];
        };
      };
    };
    'policy-set.create': {
      data: {
        /** @enum {unknown} */
        type: 'policy-sets';
        attributes: {
          name: string;
          description?: null | string;
          /** @enum {unknown} */
          kind?: 'sentinel' | 'opa';
          global?: boolean;
          overridable?: boolean;
          'agent-enabled'?: boolean;
          'policy-tool-version'?: string;
        };
        relationships?: {
          policies?: {
            data: {
              /** @constant */
              type: 'policies';
              id: string;
            }[];
          };
          workspaces?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
          'workspace-exclusions'?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
          projects?: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            }[];
          };
        };
      };
    };
    'policy-set.update': {
      data: {
        /** @enum {unknown} */
        type: 'policy-sets';
        attributes?: {
          name?: string;
          description?: null | string;
          /** @enum {unknown} */
          kind?: 'sentinel' | 'opa';
          global?: boolean;
          overridable?: boolean;
          'agent-enabled'?: boolean;
          'policy-tool-version'?: string;
        };
      };
    };
    'policy-set.policies': {
      data: {
        /** @constant */
        type: 'policies';
        id: string;
      }[];
    };
    'policy-set.workspaces': {
      data: {
        /** @constant */
        type: 'workspaces';
        id: string;
      }[];
    };
    'policy-set.workspace-exclusions': {
      data: {
        /** @constant */
        type: 'workspaces';
        id: string;
      }[];
    };
    'variable.create': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes: {
          key: string;
          value?: null | string;
          description?: null | string;
          /** @enum {unknown} */
          category: 'terraform' | 'env';
          hcl?: boolean;
          sensitive?: boolean;
        };
        relationships?: {
          workspace?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            };
          };
        };
      };
    };
    'variable.create-with-workspace': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes: {
          key: string;
          value?: null | string;
          description?: null | string;
          /** @enum {unknown} */
          category: 'terraform' | 'env';
          hcl?: boolean;
          sensitive?: boolean;
        };
        relationships: {
          workspace: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            };
          };
        };
      };
    };
    'variable.update': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes?: {
          key?: string;
          value?: null | string;
          description?: null | string;
          /** @enum {unknown} */
          category?: 'terraform' | 'env';
          hcl?: boolean;
          sensitive?: boolean;
        };
      };
    };
    'varset.create': {
      data: {
        /** @enum {unknown} */
        type: 'varsets';
        attributes: {
          name: string;
          description?: null | string;
          global?: boolean;
          priority?: boolean;
        };
        relationships?: {
          workspaces?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
        };
      };
    };
    'varset.update': {
      data: {
        /** @enum {unknown} */
        type: 'varsets';
        attributes?: {
          name?: string;
          description?: null | string;
          global?: boolean;
          priority?: boolean;
        };
        relationships?: {
          workspaces?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
        };
      };
    };
    'varset.workspaces': {
      data: {
        /** @constant */
        type: 'workspaces';
        id: string;
      }[];
    };
    'state-version.create': {
      data: {
        /** @enum {unknown} */
        type: 'state-versions';
        attributes: {
          serial: number;
          md5: string;
          lineage?: null | string;
          state?: string;
          'json-state'?: string;
          'json-state-outputs'?: string;
          force?: boolean;
        };
        relationships?: {
          run?: {
            data: null | {
              /** @constant */
              type: 'runs';
              id: string;
            };
          };
        };
      };
    };
    'state-version.rollback': {
      data: {
        /** @constant */
        type: 'state-versions';
        id: string;
      };
    };
    'workspace.remote-state-consumers': {
      data: {
        /** @constant */
        type: 'workspaces';
        id: string;
      }[];
    };
    'workspace.remote-state-consumers.replace': {
      data: {
        /** @constant */
        type: 'workspaces';
        id: string;
      }[];
    };
    'console.session': {
      username: string;
      password: string;
    };
    'console.password': {
      token: string;
      password: string;
    };
    'console.password-reset': {
      email: string;
    };
    'console.oauth-authorize': {
      client_id: string;
      redirect_uri: string;
      state?: string;
      code_challenge: string;
      code_challenge_method: string;
      response_type: string;
    };
    'run-trigger.create': {
      data: {
        /** @enum {unknown} */
        type: 'run-triggers';
        attributes?: Record<string, never>;
        relationships: {
          sourceable: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            };
          };
        };
      };
    };
    'project.create': {
      data: {
        /** @enum {unknown} */
        type: 'projects';
        attributes: {
          name: string;
          description?: null | string;
        };
        relationships?: {
          'tag-bindings'?: {
            data?: {
              /** @constant */
              type?: 'tag-bindings';
              attributes: {
                key: string;
                value?: string;
              };
            }[];
          };
        };
      };
    };
    'project.update': {
      data: {
        /** @enum {unknown} */
        type: 'projects';
        attributes?: {
          name?: string;
          description?: null | string;
        };
        relationships?: {
          'tag-bindings'?: {
            data?: {
              /** @constant */
              type?: 'tag-bindings';
              attributes: {
                key: string;
                value?: string;
              };
            }[];
          };
        };
      };
    };
    'team-project.create': {
      data: {
        /** @enum {unknown} */
        type: 'team-projects';
        attributes: {
          /** @enum {unknown} */
          access: 'read' | 'write' | 'maintain' | 'admin' | 'custom';
          'project-access'?: {
            /** @enum {unknown} */
            settings?: 'read' | 'update' | 'delete';
            /** @enum {unknown} */
            teams?: 'none' | 'read' | 'manage';
            /** @enum {unknown} */
            'variable-sets'?: 'none' | 'read' | 'write';
          };
          'workspace-access'?: {
            /** @enum {unknown} */
            runs?: 'read' | 'plan' | 'apply';
            /** @enum {unknown} */
            'sentinel-mocks'?: 'none' | 'read';
            /** @enum {unknown} */
            'state-versions'?: 'none' | 'read-outputs' | 'read' | 'write';
            /** @enum {unknown} */
            variables?: 'none' | 'read' | 'write';
            create?: boolean;
            locking?: boolean;
            move?: boolean;
            delete?: boolean;
            'run-tasks'?: boolean;
          };
        };
        relationships: {
          project: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            };
          };
          team: {
            data: {
              /** @constant */
              type: 'teams';
              id: string;
            };
          };
        };
      };
    };
    'team-project.update': {
      data: {
        /** @enum {unknown} */
        type: 'team-projects';
        attributes?: {
          /** @enum {unknown} */
          access?: 'read' | 'write' | 'maintain' | 'admin' | 'custom';
          'project-access'?: {
            /** @enum {unknown} */
            settings?: 'read' | 'update' | 'delete';
            /** @enum {unknown} */
            teams?: 'none' | 'read' | 'manage';
            /** @enum {unknown} */
            'variable-sets'?: 'none' | 'read' | 'write';
          };
          'workspace-access'?: {
            /** @enum {unknown} */
            runs?: 'read' | 'plan' | 'apply';
            /** @enum {unknown} */
            'sentinel-mocks'?: 'none' | 'read';
            /** @enum {unknown} */
            'state-versions'?: 'none' | 'read-outputs' | 'read' | 'write';
            /** @enum {unknown} */
            variables?: 'none' | 'read' | 'write';
            create?: boolean;
            locking?: boolean;
            move?: boolean;
            delete?: boolean;
            'run-tasks'?: boolean;
          };
        };
      };
    };
    'varset.projects': {
      data: {
        /** @constant */
        type: 'projects';
        id: string;
      }[];
    };
    'policy-set.projects': {
      data: {
        /** @constant */
        type: 'projects';
        id: string;
      }[];
    };
    'opa-version.create': {
      data: {
        /** @enum {unknown} */
        type: 'opa-versions';
        attributes: {
          version: string;
          url?: string;
          sha?: string;
          archs?: {
            url: string;
            sha: string;
            os: string;
            arch: string;
          }[];
          official?: boolean;
          enabled?: boolean;
          beta?: boolean;
          deprecated?: boolean;
          'deprecated-reason'?: null | string;
        };
      };
    };
    'opa-version.update': {
      data: {
        /** @enum {unknown} */
        type: 'opa-versions';
        attributes?: {
          version?: string;
          url?: string;
          sha?: string;
          archs?: {
            url: string;
            sha: string;
            os: string;
            arch: string;
          }[];
          official?: boolean;
          enabled?: boolean;
          beta?: boolean;
          deprecated?: boolean;
          'deprecated-reason'?: null | string;
        };
      };
    };
    'sentinel-version.create': {
      data: {
        /** @enum {unknown} */
        type: 'sentinel-versions';
        attributes: {
          version: string;
          url?: string;
          sha?: string;
          archs?: {
            url: string;
            sha: string;
            os: string;
            arch: string;
          }[];
          official?: boolean;
          enabled?: boolean;
          beta?: boolean;
          deprecated?: boolean;
          'deprecated-reason'?: null | string;
        };
      };
    };
    'sentinel-version.update': {
      data: {
        /** @enum {unknown} */
        type: 'sentinel-versions';
        attributes?: {
          version?: string;
          url?: string;
          sha?: string;
          archs?: {
            url: string;
            sha: string;
            os: string;
            arch: string;
          }[];
          official?: boolean;
          enabled?: boolean;
          beta?: boolean;
          deprecated?: boolean;
          'deprecated-reason'?: null | string;
        };
      };
    };
    'policy-set-parameter.create': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes: {
          key: string;
          value?: null | string;
          /** @enum {unknown} */
          category: 'policy-set';
          sensitive?: boolean;
        };
      };
    };
    'policy-set-parameter.update': {
      data: {
        /** @enum {unknown} */
        type: 'vars';
        attributes?: {
          key?: string;
          value?: null | string;
          /** @enum {unknown} */
          category?: 'policy-set';
          sensitive?: boolean;
        };
      };
    };
    'agent-pool.create': {
      data: {
        /** @enum {unknown} */
        type: 'agent-pools';
        attributes: {
          name: string;
          'organization-scoped'?: boolean;
        };
        relationships?: {
          'allowed-workspaces'?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
          'allowed-projects'?: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            }[];
          };
          'excluded-workspaces'?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
        };
      };
    };
    'agent-pool.update': {
      data: {
        /** @enum {unknown} */
        type: 'agent-pools';
        attributes?: {
          name?: string;
          'organization-scoped'?: boolean;
        };
        relationships?: {
          'allowed-workspaces'?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
          'allowed-projects'?: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            }[];
          };
          'excluded-workspaces'?: {
            data: {
              /** @constant */
              type: 'workspaces';
              id: string;
            }[];
          };
        };
      };
    };
    'data-retention-policy.set': {
      data: {
        /** @enum {unknown} */
        type: 'data-retention-policy-delete-olders' | 'data-retention-policy-dont-deletes' | 'data-retention-policies';
        attributes?: {
          'delete-older-than-n-days'?: number;
        };
      };
    };
    'ssh-key.create': {
      data: {
        /** @enum {unknown} */
        type: 'ssh-keys';
        attributes: {
          name: string;
          value: string;
        };
      };
    };
    'ssh-key.update': {
      data: {
        /** @enum {unknown} */
        type: 'ssh-keys';
        attributes?: {
          name?: string;
          value?: string;
        };
      };
    };
    'workspace.ssh-key': {
      data: {
        /** @enum {unknown} */
        type: 'workspaces';
        attributes: {
          id: null | string;
        };
      };
    };
    'oauth-client.create': {
      data: {
        /** @enum {unknown} */
        type: 'oauth-clients';
        attributes: {
          /** @enum {unknown} */
          'service-provider':
            | 'ado_server'
            | 'ado_services'
            | 'bitbucket_data_center'
            | 'bitbucket_hosted'
            | 'bitbucket_server'
            | 'bitbucket_server_legacy'
            | 'github'
            | 'github_enterprise'
            | 'gitlab_hosted'
            | 'gitlab_community_edition'
            | 'gitlab_enterprise_edition'
            | 'git';
          name?: null | string;
          'http-url': string;
          'api-url': string;
          key?: null | string;
          secret?: null | string;
          'rsa-public-key'?: null | string;
          'private-key'?: null | string;
          'oauth-token-string'?: null | string;
          'organization-scoped'?: boolean;
        };
        relationships?: {
          'agent-pool'?: {
            data: null | {
              /** @constant */
              type: 'agent-pools';
              id: string;
            };
          };
        };
      };
    };
    'oauth-client.update': {
      data: {
        /** @enum {unknown} */
        type: 'oauth-clients';
        attributes?: {
          name?: null | string;
          key?: null | string;
          secret?: null | string;
          'rsa-public-key'?: null | string;
          'private-key'?: null | string;
          'oauth-token-string'?: null | string;
          'organization-scoped'?: boolean;
        };
        relationships?: {
          'agent-pool'?: {
            data: null | {
              /** @constant */
              type: 'agent-pools';
              id: string;
            };
          };
        };
      };
    };
    'oauth-client.projects': {
      data: {
        /** @constant */
        type: 'projects';
        id: string;
      }[];
    };
    'oauth-token.update': {
      data: {
        /** @enum {unknown} */
        type: 'oauth-tokens';
        attributes?: {
          'ssh-key'?: string;
        };
      };
    };
    'no-code-module.create': {
      data: {
        /** @enum {unknown} */
        type: 'no-code-modules';
        attributes?: {
          enabled?: boolean;
          'version-pin'?: null | string;
        };
        relationships: {
          'registry-module': {
            data: {
              /** @constant */
              type: 'registry-modules';
              id: string;
            };
          };
          'variable-options'?: {
            data: {
              /** @constant */
              type: 'variable-options';
              attributes: {
                'variable-name': string;
                'variable-type'?: string;
                options?: string[];
              };
            }[];
          };
        };
      };
    };
    'no-code-module.update': {
      data: {
        /** @enum {unknown} */
        type: 'no-code-modules';
        attributes?: {
          enabled?: boolean;
          'version-pin'?: null | string;
        };
        relationships?: {
          'registry-module'?: {
            data: {
              /** @constant */
              type: 'registry-modules';
              id: string;
            };
          };
          'variable-options'?: {
            data: {
              /** @constant */
              type: 'variable-options';
              attributes: {
                'variable-name': string;
                'variable-type'?: string;
                options?: string[];
              };
            }[];
          };
        };
      };
    };
    'no-code-module.workspace': {
      data: {
        /** @enum {unknown} */
        type: 'no-code-module-workspace' | 'workspaces';
        attributes: {
          name: string;
          description?: null | string;
          'auto-apply'?: boolean;
          /** @enum {unknown} */
          'execution-mode'?: 'remote' | 'local' | 'agent';
          'agent-pool-id'?: null | string;
          'source-name'?: null | string;
          'source-url'?: null | string;
        };
        relationships?: {
          project?: {
            data: {
              /** @constant */
              type: 'projects';
              id: string;
            };
          };
          vars?: {
            data: {
              /** @constant */
              type: 'vars';
              attributes: {
                key: string;
                value?: null | string;
                description?: null | string;
                /** @enum {unknown} */
                category: 'terraform' | 'env';
                hcl?: boolean;
                sensitive?: boolean;
              };
            }[];
          };
        };
      };
    };
    /** @description A JSON:API document: data (a resource or a list), included, links and meta */
    document: Record<string, never>;
    errors: {
      errors: {
        status: string;
        title: string;
        detail?: string;
        source?: Record<string, never>;
      }[];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  get_healthz: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_readyz: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_metrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_well_known_terraform_json: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_favicon_ico: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_console_session: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_console_session: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['console.session'];
      };
    };
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_console_session: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_console_password: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['console.password'];
      };
    };
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_console_password_reset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['console.password-reset'];
      };
    };
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_console_oauth_authorize: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['console.oauth-authorize'];
      };
    };
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_console_sso: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_console_sso_provider_start: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_console_sso_provider_callback: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_oauth_token: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_webhooks_vcs_hookId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        hookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_ping: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_openapi_json: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_task_results_id_callback: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  put_api_v2_policies_id_upload: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['organization.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_organizations_org: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['organization.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_entitlement_set: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_authentication_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_authentication_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_authentication_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_team_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_account_details: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_account_update: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['account.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_users_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_admin_users: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_admin_users: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['user.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_admin_users_id_actions_reset_password: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_admin_users_id_actions_suspend: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_admin_users_id_actions_unsuspend: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_admin_organizations: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_users_id_authentication_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_users_id_authentication_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_authentication_tokens_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_authentication_tokens_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_organization_memberships: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_organization_memberships: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['membership.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organization_memberships: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organization_memberships_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organization_memberships_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organization_memberships_id_actions_accept: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_teams: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_teams: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_teams_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_teams_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_teams_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_teams_id_authentication_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_teams_id_authentication_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_teams_id_authentication_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_teams_id_authentication_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_teams_id_authentication_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_teams_id_relationships_users: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team.users'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_teams_id_relationships_users: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team.users'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_teams_id_relationships_organization_memberships: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team.memberships'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_teams_id_relationships_organization_memberships: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team.memberships'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_team_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_team_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team-workspace.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_team_workspaces_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_team_workspaces_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_team_workspaces_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team-workspace.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_workspaces_name: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_workspaces_name: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_organizations_org_workspaces_name: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_workspaces_name_actions_safe_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_workspaces_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_workspaces_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_actions_lock: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_actions_unlock: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_actions_force_unlock: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_actions_safe_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_workspaces_id_relationships_ssh_key: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.ssh-key'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_relationships_tags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_relationships_tags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.tags'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_workspaces_id_relationships_tags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.tags'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_tags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_tags: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['tag.ids'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_tags_id_relationships_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['tag.workspaces'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_configuration_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_configuration_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_configuration_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_configuration_versions_id_ingress_attributes: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_configuration_versions_id_actions_archive: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_configuration_versions_id_download: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id_configuration_version_download: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_configuration_versions_id_actions_soft_delete_backing_data: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_configuration_versions_id_actions_restore_backing_data: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_configuration_versions_id_actions_permanently_delete_backing_data: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['run.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id_run_events: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_run_events_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs_id_actions_apply: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs_id_actions_discard: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs_id_actions_cancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs_id_actions_force_cancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs_id_actions_force_execute: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id_comments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_runs_id_comments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['comment.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_comments_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_runs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_runs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_runs_queue: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_capacity: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_plans_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_plans_id_json_output: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_plans_id_json_output_redacted: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_applies_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_current_state_version: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_current_state_version_outputs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_state_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_state_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['state-version.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_resources: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_actions_rollback: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['state-version.rollback'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_state_versions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_state_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_state_versions_id_outputs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_state_versions_id_actions_soft_delete_backing_data: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_state_versions_id_actions_restore_backing_data: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_state_versions_id_actions_permanently_delete_backing_data: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_relationships_remote_state_consumers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_relationships_remote_state_consumers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.remote-state-consumers'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_workspaces_id_relationships_remote_state_consumers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.remote-state-consumers'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_workspaces_id_relationships_remote_state_consumers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace.remote-state-consumers.replace'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_state_version_outputs_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_current_assessment_result: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_assessment_results_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_tasks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tasks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['task.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_tasks_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_tasks_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_tasks_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['task.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_tasks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_tasks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace-task.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_tasks_wstask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        wstask: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_workspaces_id_tasks_wstask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        wstask: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_workspaces_id_tasks_wstask: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        wstask: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['workspace-task.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id_task_stages: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_task_stages_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_task_stages_id_actions_override: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_task_stages_id_policy_evaluations: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_evaluations_id_policy_set_outcomes: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_set_outcomes_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_task_results_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_notification_configurations: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_notification_configurations: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['notification.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_notification_configurations_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_notification_configurations_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_notification_configurations_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['notification.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_notification_configurations_id_actions_verify: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_notification_configurations_id_deliveries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_notification_deliveries_id_actions_resend: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_registry_modules: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_registry_modules: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['registry-module.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_registry_modules_vcs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['registry-module.vcs'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_registry_modules: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['registry-module.vcs'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_registry_modules_registry_namespace_name: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_registry_modules_registry_namespace_name_provider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_registry_modules_registry_namespace_name_provider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['registry-module-version.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_version: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_version_: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        version: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_registry_modules_registry_namespace_name_provider_version: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        version: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_registry_modules_org_name_provider_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['registry-module-version.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_registry_modules_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_registry_modules_actions_delete_org_name: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_registry_modules_actions_delete_org_name_provider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_registry_modules_actions_delete_org_name_provider_version: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        name: string;
        provider: string;
        version: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_versions_version_test_runs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        version: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['registry-module-version.test'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_configuration_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['test-run.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_id_cancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_test_runs_id_force_cancel: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['test-variable.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_organizations_org_tests_registry_modules_registry_namespace_name_provider_vars_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
        registry: string;
        namespace: string;
        name: string;
        provider: string;
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['test-variable.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id_policy_checks: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_checks_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_checks_id_output: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_checks_id_actions_override: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_policies: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_policies: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policies_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policies_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_policies_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policies_id_download: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_policy_sets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_policy_sets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_sets_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policy_sets_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_policy_sets_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_sets_id_relationships_policies: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.policies'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policy_sets_id_relationships_policies: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.policies'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_sets_id_relationships_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.workspaces'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policy_sets_id_relationships_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.workspaces'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_sets_id_relationships_workspace_exclusions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.workspace-exclusions'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policy_sets_id_relationships_workspace_exclusions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.workspace-exclusions'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_sets_id_relationships_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.projects'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policy_sets_id_relationships_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set.projects'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_sets_id_parameters: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_sets_id_parameters: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set-parameter.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_sets_id_parameters_param_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        param_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_policy_sets_id_parameters_param_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        param_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_policy_sets_id_parameters_param_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        param_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['policy-set-parameter.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_policy_sets_id_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_policy_set_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_admin_opa_versions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_admin_opa_versions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['opa-version.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_admin_opa_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_admin_opa_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_admin_opa_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['opa-version.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_admin_sentinel_versions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_admin_sentinel_versions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['sentinel-version.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_admin_sentinel_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_admin_sentinel_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_admin_sentinel_versions_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['sentinel-version.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['variable.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_vars_var_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        var_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_workspaces_id_vars_var_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        var_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_workspaces_id_vars_var_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        var_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['variable.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_all_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_vars: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_vars: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['variable.create-with-workspace'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_vars_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_vars_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['variable.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_varsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_varsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['varset.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_varsets_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_varsets_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_varsets_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['varset.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_varsets_id_relationships_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_varsets_id_relationships_vars: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['variable.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_varsets_id_relationships_vars_var_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        var_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_varsets_id_relationships_vars_var_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        var_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_varsets_id_relationships_vars_var_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        var_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['variable.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_varsets_id_relationships_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['varset.workspaces'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_varsets_id_relationships_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['varset.workspaces'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_varsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_varsets_id_relationships_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['varset.projects'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_varsets_id_relationships_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['varset.projects'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_projects_id_varsets: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_run_triggers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_run_triggers: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['run-trigger.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_run_triggers_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_run_triggers_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['project.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_projects_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_projects_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_projects_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['project.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_team_projects: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_team_projects: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team-project.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_team_projects_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_team_projects_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_team_projects_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['team-project.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_agent_pools: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_agent_pools: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['agent-pool.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_agent_pools_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_agent_pools_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_agent_pools_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['agent-pool.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['data-retention-policy.set'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_organizations_org_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_organizations_org_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['data-retention-policy.set'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_workspaces_id_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_workspaces_id_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['data-retention-policy.set'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_workspaces_id_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_workspaces_id_relationships_data_retention_policy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['data-retention-policy.set'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_ssh_keys: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_ssh_keys: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['ssh-key.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_ssh_keys_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_ssh_keys_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_ssh_keys_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['ssh-key.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_oauth_clients: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_oauth_clients: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['oauth-client.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_oauth_clients_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_oauth_clients_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_oauth_clients_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['oauth-client.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_oauth_clients_id_relationships_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['oauth-client.projects'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_oauth_clients_id_relationships_projects: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['oauth-client.projects'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_oauth_clients_id_oauth_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_organizations_org_oauth_tokens: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_oauth_tokens_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_oauth_tokens_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_oauth_tokens_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['oauth-token.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_runs_id_commit_statuses: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_organizations_org_no_code_modules: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        org: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['no-code-module.create'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_v2_no_code_modules_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  delete_api_v2_no_code_modules_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  patch_api_v2_no_code_modules_id: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['no-code-module.update'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  post_api_v2_no_code_modules_id_workspaces: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/vnd.api+json': components['schemas']['no-code-module.workspace'];
      };
    };
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_registry_v1_modules_namespace_name_provider_versions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_registry_v1_modules_namespace_name_provider_version_download: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace: string;
        name: string;
        provider: string;
        version: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_registry_v1_modules_namespace_name_provider: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace: string;
        name: string;
        provider: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_api_registry_v1_modules_namespace_name_provider_version: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace: string;
        name: string;
        provider: string;
        version: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No valid API token */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['errors'];
        };
      };
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_v1_object_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  put_v1_object_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
  get_v1_logs_token: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A JSON:API document, or a JSON:API error document */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/vnd.api+json': components['schemas']['document'];
        };
      };
    };
  };
}
