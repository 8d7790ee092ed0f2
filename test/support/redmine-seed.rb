# Seeds a fresh Redmine instance for sift's tests (run by test/support/redmine.ts with `rails runner`
# after the migration and the default data): REST on, the admin's API key, three people, a project
# "sift" with members, versions (open, locked, closed), two categories, a status no workflow leads
# to, and an issue custom field of every format sift maps plus two it cannot (link, user). Writes
# what the tests need to know (key, ids) as JSON to the file named by SIFT_REDMINE_SEED_OUT.

Setting.rest_api_enabled = '1'
Setting.default_language = 'en'
admin = User.find_by!(login: 'admin')
admin.update!(must_change_passwd: false, mail: 'admin@example.test')

people = %w[alice bob carol].map do |login|
  user = User.new(firstname: login.capitalize, lastname: 'Tester', mail: "#{login}@example.test")
  user.login = login
  user.password = 'sift-test-password'
  user.password_confirmation = 'sift-test-password'
  user.status = User::STATUS_ACTIVE
  user.save!
  user
end

project = Project.new(name: 'Sift', identifier: 'sift', is_public: true)
project.enabled_module_names = %w[issue_tracking time_tracking]
project.trackers = Tracker.all
project.save!

developer = Role.find_by!(name: 'Developer')
manager = Role.find_by!(name: 'Manager')
people.each_with_index do |user, index|
  Member.create!(project: project, principal: user, role_ids: [index.zero? ? manager.id : developer.id])
end

%w[Backend Frontend].each { |name| IssueCategory.create!(project: project, name: name) }
versions = {'1.0' => 'open', '2.0' => 'open', '0.9' => 'closed', '1.5' => 'locked'}.map do |name, status|
  version = Version.create!(project: project, name: name, status: 'open')
  version.update!(status: status)
  version
end

# A status no role's workflow leads to: setting it is ignored by Redmine (204, nothing changes).
frozen = IssueStatus.create!(name: 'Frozen', is_closed: false)

fields = {
  'Severity' => {field_format: 'list', possible_values: %w[minor major critical], multiple: false},
  'Platforms' => {field_format: 'list', possible_values: %w[linux mac windows], multiple: true},
  'Story points' => {field_format: 'int'},
  'Cost' => {field_format: 'float'},
  'Deadline' => {field_format: 'date'},
  'Regression' => {field_format: 'bool'},
  'Customer' => {field_format: 'string'},
  'Notes for QA' => {field_format: 'text'},
  'Spec link' => {field_format: 'link'},
  'Reviewer' => {field_format: 'user'},
}.map do |name, attributes|
  IssueCustomField.create!({name: name, is_for_all: true, trackers: Tracker.all, visible: true}.merge(attributes))
end

File.write(ENV.fetch('SIFT_REDMINE_SEED_OUT'), JSON.generate(
  api_key: admin.api_key,
  project_id: project.id,
  users: people.to_h { |user| [user.login, user.id] },
  versions: versions.to_h { |version| [version.name, version.id] },
  frozen_status_id: frozen.id,
  custom_fields: fields.to_h { |field| [field.name, field.id] },
  trackers: Tracker.all.to_h { |tracker| [tracker.name, tracker.id] },
  statuses: IssueStatus.all.to_h { |status| [status.name, status.id] },
  priorities: IssuePriority.all.to_h { |priority| [priority.name, priority.id] },
))
