
# frozen_string_literal: true

require "active_support/concern"

# Events recorded for a model: a Rails concern, whose API is written in blocks.
module Trackable
  extend ActiveSupport::Concern

  EVENT_LIMIT = 500

  included do
    has_many :events, dependent: :destroy
    scope :recent, -> { where("created_at > ?", 1.week.ago) }
    after_create { track("created") }

    def created_event
      events.find_by(name: "created")
    end
  end

  class_methods do
    def tracked_names
      Event.where(trackable_type: name).distinct.pluck(:name)
    end

    def track_all(names, payload: {})
      find_each { |record| names.each { |n| record.track(n, payload) } }
    end
  end

  def track(name, payload = {})
    events.create!(name: name, payload: payload) if events.count < EVENT_LIMIT
  end

  def untrack(name)
    events.where(name: name).delete_all
  end
end

# A value object built with a block of methods.
Point = Struct.new(:x, :y) do
  def distance_to(other)
    Math.sqrt((x - other.x)**2 + (y - other.y)**2)
  end

  def to_s
    "(#{x}, #{y})"
  end
end

# Blocks without methods are not listed.
Registry = Hash.new { |hash, key| hash[key] = [] }
DEFAULT_NAMES = %w[created updated].map do |name|
  name.to_sym
end

RSpec.describe Trackable do
  let(:record) { Widget.create!(name: "w") }

  context "when tracking" do
    def track_twice(name)
      2.times { record.track(name) }
    end

    it "stores each event" do
      track_twice("opened")
      expect(record.events.count).to eq(2)
    end
  end
end
