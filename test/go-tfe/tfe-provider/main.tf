# A configuration managing this service with the tfe provider, as teams manage Terraform
# Cloud/Enterprise: apply it, plan again (no changes expected), destroy it. See docs/compatibility.md.
terraform {
  required_providers {
    tfe = { source = "hashicorp/tfe", version = "0.50.0" }
  }
}

variable "hostname" { type = string }
variable "email" { type = string }
variable "run_task_url" { type = string }
variable "notification_url" { type = string }

provider "tfe" {
  hostname = var.hostname
}

resource "tfe_organization" "org" {
  name  = "provider-check"
  email = var.email
}

resource "tfe_team" "platform" {
  name         = "platform"
  organization = tfe_organization.org.name
}

resource "tfe_organization_membership" "member" {
  organization = tfe_organization.org.name
  email        = "member@example.com"
}

resource "tfe_team_organization_member" "member" {
  team_id                    = tfe_team.platform.id
  organization_membership_id = tfe_organization_membership.member.id
}

resource "tfe_project" "apps" {
  name         = "apps"
  organization = tfe_organization.org.name
}

resource "tfe_workspace" "app" {
  name         = "app"
  organization = tfe_organization.org.name
  project_id   = tfe_project.apps.id
}

resource "tfe_variable" "region" {
  key          = "region"
  value        = "eu-west-1"
  category     = "terraform"
  workspace_id = tfe_workspace.app.id
}

resource "tfe_variable" "secret" {
  key          = "API_SECRET"
  value        = "s3cret"
  category     = "env"
  sensitive    = true
  workspace_id = tfe_workspace.app.id
}

resource "tfe_variable_set" "shared" {
  name         = "shared"
  organization = tfe_organization.org.name
}

resource "tfe_variable" "shared_tier" {
  key             = "tier"
  value           = "gold"
  category        = "terraform"
  variable_set_id = tfe_variable_set.shared.id
}

resource "tfe_workspace_variable_set" "app" {
  workspace_id    = tfe_workspace.app.id
  variable_set_id = tfe_variable_set.shared.id
}

resource "tfe_team_access" "platform" {
  access       = "write"
  team_id      = tfe_team.platform.id
  workspace_id = tfe_workspace.app.id
}

resource "tfe_notification_configuration" "app" {
  name             = "app-events"
  enabled          = true
  destination_type = "generic"
  triggers         = ["run:completed", "run:errored"]
  url              = var.notification_url
  workspace_id     = tfe_workspace.app.id
}

resource "tfe_organization_run_task" "check" {
  organization = tfe_organization.org.name
  url          = var.run_task_url
  name         = "check"
  enabled      = true
}

resource "tfe_workspace_run_task" "check" {
  workspace_id      = tfe_workspace.app.id
  task_id           = tfe_organization_run_task.check.id
  enforcement_level = "advisory"
}

resource "tfe_policy" "no_public" {
  name         = "no-public-buckets"
  organization = tfe_organization.org.name
  kind         = "opa"
  query        = "data.example.rule"
  policy       = "package example\n\ndeny := []\n"
  enforce_mode = "advisory"
}

resource "tfe_policy_set" "baseline" {
  name          = "baseline"
  organization  = tfe_organization.org.name
  kind          = "opa"
  policy_ids    = [tfe_policy.no_public.id]
  workspace_ids = [tfe_workspace.app.id]
}

resource "tfe_registry_module" "vpc" {
  organization    = tfe_organization.org.name
  module_provider = "aws"
  name            = "vpc"
}

resource "tfe_organization_token" "org" {
  organization = tfe_organization.org.name
}

resource "tfe_team_token" "platform" {
  team_id = tfe_team.platform.id
}

data "tfe_workspace" "app" {
  name         = tfe_workspace.app.name
  organization = tfe_organization.org.name
}

data "tfe_outputs" "app" {
  organization = tfe_organization.org.name
  workspace    = tfe_workspace.app.name
}
